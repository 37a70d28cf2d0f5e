"""What the reranker reads of a passage, as ranking/rerank/passage.ts builds it (pure; no torch, so the
parity test runs on CI's Python): `window` = "Title. text"; `best` = the title and the sentences with the
best evidence score, taken best first while they fit in `chars` characters (the best one always), in
their own order. ranking/rerank/fixtures/passage-cases.json pins both sides.
"""


def with_title(title, text):
    t = title.strip()
    return f'{t}. {text}' if t else text


def js_length(s):
    """A string's length as JavaScript counts it (UTF-16 code units), so that both sides keep the same sentences."""
    return len(s.encode('utf-16-le')) // 2


def best_sentence_indexes(sentences, scores, chars):
    if not sentences:
        return []
    order = sorted(range(len(sentences)), key=lambda i: (-(scores[i] if i < len(scores) else 0.0), i))
    kept, used = [], 0
    for i in order:
        length = js_length(sentences[i]) + (1 if kept else 0)
        if kept and used + length > chars:
            continue
        kept.append(i)
        used += length
    return sorted(kept)


def best_sentences_text(title, sentences, scores, chars):
    return with_title(title, ' '.join(sentences[i] for i in best_sentence_indexes(sentences, scores, chars)))


def render(cand, how, chars):
    """A candidate ({title, sentences, text, scores}) as the model reads it with input `how`."""
    if how == 'window':
        return with_title(cand['title'], cand['text'])
    return best_sentences_text(cand['title'], cand['sentences'], cand['scores'], chars)
