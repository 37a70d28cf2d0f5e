/**
 * A compound claim split into atomic parts, each a sentence that can be checked alone (after the
 * decomposition step of FActScore and Claimify, without a language model: rules over compromise's
 * part-of-speech tags). Each rule finds one construction and returns the sentence as parts, or null:
 *
 * - an insertion between commas: an appositive ("Bono, the band's lead singer, said …" → "Bono is
 *   the band's lead singer." + "Bono said …") or a non-restrictive relative clause ("Apple, which
 *   reported record profits, plans …" → "Apple reported record profits." + "Apple plans …");
 * - clauses joined by a semicolon or by ", and / but / while / whereas / although" with a subject of
 *   their own ("Profits jumped 76%, while revenues grew 6.4%");
 * - verb phrases sharing a subject ("said it would cut 2,000 jobs and close three factories" → the
 *   second part repeats "The company said it would");
 * - a relative clause after the verb ("… on a tour that starts in San Diego" → "U2's tour starts in
 *   San Diego."). One in the subject is left alone: removing it would change what is claimed
 *   ("Companies that export rose 5%").
 *
 * Rules apply again to the parts they make, up to MAX_PARTS. Pure.
 */
import nlp from 'compromise';
import { clauseEnd, firstVerb, hasVerb, headOf, nounPhraseStart, startsVerbPhrase, subjectSpan, subjectStart } from './spans';
import { asSentence, endsWithComma, has, isName, isPronoun, isVerb, type Token } from './tokens';

/** At most this many parts per sentence: beyond, the rest stays in the last part. */
export const MAX_PARTS = 5;
/** A part shorter than this many words is no statement: the rule that made it does not apply. */
const MIN_PART_WORDS = 3;

export interface SplitContext {
  /** The name the sentence is about (its subject's), for parts that need an owner ("U2's tour"). */
  owner: string | null;
}

type Rule = (tokens: readonly Token[], ctx: SplitContext) => Token[][] | null;

/** People are not owned ("Smith's woman"): a relative clause about one of these keeps its own noun. */
const PERSON_NOUNS = new Set(
  `man men woman women boy boys girl girls person people child children officer officers suspect suspects victim victims player
  players fan fans worker workers employee employees resident residents student students customer customers passenger passengers
  patient patients doctor doctors teacher teachers voter voters official officials member members leader leaders`
    .split(/\s+/)
    .filter(Boolean),
);
const CLAUSE_JOINS = new Set(['and', 'but', 'while', 'whereas', 'although', 'though', 'yet']);
const TENSES = ['PastTense', 'PresentTense', 'Infinitive', 'Gerund'];
/** Words that may stand between "and" / "but" and the verb they join ("but so far has", "and then said"). */
const BETWEEN = new Set(['so', 'far', 'then', 'still', 'also', 'now', 'later', 'even', 'yet']);
/** Conjunctions that open a clause of its own: "… after the company reported record profits". */
const SUBORDINATORS = new Set([
  'after',
  'before',
  'because',
  'when',
  'as',
  'since',
  'although',
  'though',
  'while',
  'whereas',
  'until',
  'once',
]);
const FINITE = ['PastTense', 'PresentTense', 'Modal', 'Auxiliary', 'Copula'];

const word = (text: string, tags: string[], name = false): Token => ({
  text,
  pre: '',
  post: ' ',
  normal: text.toLowerCase(),
  tags: new Set(tags),
  name,
});
/** The token with new punctuation after it; a closing bracket or quote it had stays ("(SEC)"). */
const withPost = (t: Token, post: string): Token => ({ ...t, post: `${/^[)\]"”’]*/.exec(t.post)![0]}${post}` });
const wordCount = (tokens: readonly Token[]) => tokens.filter((t) => /[\p{L}\p{N}]/u.test(t.text)).length;

/** The phrase with its last word's comma dropped, so that it can sit anywhere in a new sentence. */
function closed(phrase: readonly Token[], post = ' '): Token[] {
  return phrase.length ? [...phrase.slice(0, -1), withPost(phrase.at(-1)!, post)] : [];
}

/** "a tour" → "U2's tour" (or "the tour" when there is no owner or the noun is a person). */
function definite(head: readonly Token[], ctx: SplitContext): Token[] {
  const noun = headOf(head);
  if (!noun || isName(noun) || head.some((t) => isName(t) || has(t, 'Possessive'))) return [...head];
  const rest = has(head[0], 'Determiner') ? head.slice(1) : [...head];
  if (ctx.owner && !PERSON_NOUNS.has(noun.normal)) return [word(`${ctx.owner}'s`, ['Noun', 'ProperNoun', 'Possessive'], true), ...rest];
  return has(head[0], 'Determiner') && /^(?:a|an)$/.test(head[0]!.normal) ? [word('the', ['Determiner']), ...rest] : [...head];
}

const usable = (parts: Token[][]) => parts.every((p) => wordCount(p) >= MIN_PART_WORDS && hasVerb(p));

/** "Bono, the band's lead singer, said …" and "its own internet business, AOL, had …". */
const appositive: Rule = (tokens) => {
  for (let i = 0; i < tokens.length - 3; i++) {
    if (!endsWithComma(tokens[i]) || /;/.test(tokens[i]!.post)) continue;
    const close = clauseEnd(tokens, i + 1) - 1;
    if (close >= tokens.length - 1 || !startsVerbPhrase(tokens, close + 1)) continue;
    const before = tokens.slice(nounPhraseStart(tokens, i, subjectStart(tokens)), i + 1);
    const inner = tokens.slice(i + 1, close + 1);
    if (!before.length || inner.length > 10 || hasVerb(inner) || hasVerb(before)) continue;
    const nameFirst = before.every(isName) && !inner.every(isName);
    const nameSecond = inner.every(isName) && !before.every(isName);
    if (!nameFirst && !nameSecond) continue;
    const [name, role] = nameFirst ? [before, inner] : [inner, before];
    const start = i + 1 - before.length;
    const fact = [...closed(name), word('is', ['Verb', 'Copula', 'PresentTense']), ...closed(role, '')];
    const main = [...tokens.slice(0, start), ...closed(name), ...tokens.slice(close + 1)];
    const parts = [main, fact];
    if (usable(parts)) return parts;
  }
  return null;
};

/** "Apple, which reported record profits, plans …" → "Apple reported record profits." + "Apple plans …". */
const nonRestrictive: Rule = (tokens, ctx) => {
  for (let i = 0; i < tokens.length - 2; i++) {
    if (!endsWithComma(tokens[i]) || !/^(?:which|who)$/.test(tokens[i + 1]!.normal) || !startsVerbPhrase(tokens, i + 2)) continue;
    const end = clauseEnd(tokens, i + 2);
    const head = tokens.slice(nounPhraseStart(tokens, i), i + 1);
    const noun = headOf(head);
    if (!noun || has(noun, 'Value') || isPronoun(noun)) continue;
    const fact = [...definite(closed(head), ctx), ...tokens.slice(i + 2, end)];
    const tail = tokens.slice(end);
    if (end < tokens.length && head[0] === tokens[subjectStart(tokens)] && !startsVerbPhrase(tokens, end)) continue;
    const main = [
      ...tokens.slice(0, i),
      withPost(tokens[i]!, tail.length ? ' ' : tokens[end - 1]!.post.replace(/^[)\]"”’]*/, '')),
      ...tail,
    ];
    const parts = [main, fact];
    if (usable(parts)) return parts;
  }
  return null;
};

/** "…; …": two statements in one sentence. */
const semicolon: Rule = (tokens) => {
  const i = tokens.findIndex((t, k) => k < tokens.length - 1 && /;/.test(t.post));
  if (i < 0) return null;
  const parts = [tokens.slice(0, i + 1), tokens.slice(i + 1)];
  return usable(parts) ? parts : null;
};

/** A clause with a subject of its own after "and", "but", "while" …: "Profits jumped, while revenues grew 6.4%". */
const clauses: Rule = (tokens, ctx) => {
  for (let i = 1; i < tokens.length - 2; i++) {
    const join = tokens[i]!;
    if (!CLAUSE_JOINS.has(join.normal)) continue;
    const after = tokens.slice(i + 1);
    const v = firstVerb(after);
    const subject = after.slice(0, Math.max(0, v));
    if (v < 1 || subject.length > 6 || !subject.some((t) => has(t, 'Noun') || isName(t) || isPronoun(t))) continue;
    // A subject may hold a preposition ("repairs to the bridge"), not start with one ("and in 2003 …").
    if (has(subject[0], 'Preposition') || has(subject[0], 'Adverb') || subject.some((t) => endsWithComma(t))) continue;
    if (has(after[v], 'Gerund') || !['PastTense', 'PresentTense', 'Modal', 'Auxiliary'].some((tag) => has(after[v], tag))) continue;
    // "2000 and 2003 results", "Alexander and Catwoman": two of a kind joined, not two clauses.
    if ((has(tokens[i - 1], 'Value') && has(after[0], 'Value')) || (isName(tokens[i - 1]) && isName(after[0]) && v > 1)) continue;
    // Without a comma, "and" must join two clauses, not two nouns: the first half needs its own verb.
    const first = tokens.slice(0, i);
    if (!endsWithComma(tokens[i - 1]) && join.normal === 'and' && !hasVerb(first.slice(subjectSpan(tokens).end))) continue;
    const parts = [closed(first, ''), ownedSubject(after, subject.length, ctx)];
    if (usable(parts)) return parts;
  }
  return null;
};

/** A part's bare subject ("revenues grew") belongs to what the sentence is about ("TimeWarner's revenues grew"). */
function ownedSubject(clause: Token[], subjectLength: number, ctx: SplitContext): Token[] {
  const subject = clause.slice(0, subjectLength);
  const bare = subject.every((t) => has(t, 'Noun') || has(t, 'Adjective')) && !subject.some((t) => isName(t) || isPronoun(t));
  return bare && ctx.owner ? [...definite(subject, ctx), ...clause.slice(subjectLength)] : clause;
}

/** Verb phrases sharing a subject: "would cut 2,000 jobs and close three factories" → both with "The company said it would". */
const verbPhrases: Rule = (tokens) => {
  for (let i = 1; i < tokens.length - 2; i++) {
    if (tokens[i]!.normal !== 'and' && tokens[i]!.normal !== 'but') continue;
    let v = i + 1;
    while ((has(tokens[v], 'Adverb') || BETWEEN.has(tokens[v]?.normal ?? '')) && v < i + 3) v++;
    const verb = asVerb(tokens[v]);
    if (!verb || has(verb, 'Conjunction')) continue;
    const prefixEnd = sharedPrefixEnd(tokens, i, verb!);
    if (prefixEnd < 0) continue;
    const rest = tokens.slice(i + 1);
    rest[v - i - 1] = verb!;
    const parts = [closed(tokens.slice(0, i), ''), [...tokens.slice(0, prefixEnd), ...rest]];
    if (usable(parts) && prefixEnd > 0) return parts;
  }
  return null;
};

/**
 * The word read as a verb: compromise tags "sold" in "went on sale and sold out" an adjective; read
 * after a subject ("they sold") it is the past tense it is.
 */
function asVerb(t: Token | undefined): Token | null {
  if (!t || isVerb(t)) return t && isVerb(t) ? t : null;
  if (!has(t, 'Adjective') || t.name) return null;
  const tags = nlp(`they ${t.normal}`).terms().json()[1]?.terms?.[0]?.tags as string[] | undefined;
  return tags?.includes('Verb') && !tags.includes('Adjective') ? { ...t, tags: new Set(tags) } : null;
}

/** Where the words the second verb phrase shares with the first end: before the first verb of the same form. */
function sharedPrefixEnd(tokens: readonly Token[], join: number, verb: Token): number {
  const start = subjectStart(tokens);
  const main = firstVerb(tokens, start);
  if (main < 0 || main >= join) return -1;
  if (has(verb, 'Modal') || has(verb, 'Auxiliary') || has(verb, 'Copula')) return main;
  const tense = TENSES.find((t) => has(verb, t));
  if (!tense) return -1;
  for (let k = join - 1; k >= main; k--) {
    if (!isVerb(tokens[k]) || !has(tokens[k], tense) || has(tokens[k], 'Auxiliary')) continue;
    // "would cut … and close": the bare verb shares "would"; "is projecting … and expects" shares only the subject.
    if (has(verb, 'Infinitive')) return k;
    while (k > main && (has(tokens[k - 1], 'Auxiliary') || has(tokens[k - 1], 'Copula') || has(tokens[k - 1], 'Modal'))) k--;
    return k;
  }
  // "made his breakthrough … but so far has only a silver medal": a finite verb of another tense shares the subject.
  return tense === 'PastTense' || tense === 'PresentTense' ? main : -1;
}

/** Where a clause with its own subject and finite verb starting at `from` has its verb (-1: not such a clause). */
function ownClauseVerb(tokens: readonly Token[], from: number, end: number): number {
  const v = firstVerb(tokens, from);
  if (v <= from || v >= end || v - from > 12) return -1;
  const subject = tokens.slice(from, v);
  if (!subject.some((t) => has(t, 'Noun') || isName(t) || isPronoun(t)) || subject.some((t) => endsWithComma(t))) return -1;
  if (has(subject[0], 'Preposition') || has(tokens[v], 'Gerund') || !FINITE.some((tag) => has(tokens[v], tag))) return -1;
  // "as part of efforts to resolve …": an infinitive is no clause's verb.
  if (tokens[v - 1]!.normal === 'to') return -1;
  return v;
}

/**
 * A subordinate clause with a subject of its own: "Shares rose 3% after the company reported record
 * profits" and "After the company reported profits, shares rose" → both statements. (The link between
 * them, "after", is not checked: each part is.)
 */
const subordinate: Rule = (tokens) => {
  const start = subjectStart(tokens);
  // Opening the sentence: "After X did Y, Z did W."
  if (SUBORDINATORS.has(tokens[0]?.normal ?? '')) {
    const comma = clauseEnd(tokens, 1);
    if (comma < tokens.length && ownClauseVerb(tokens, 1, comma) > 0) {
      const parts = [closed(tokens.slice(1, comma), ''), tokens.slice(comma)];
      if (usable(parts)) return parts;
    }
  }
  const main = firstVerb(tokens, start);
  for (let i = Math.max(main + 1, 1); main >= 0 && i < tokens.length - 2; i++) {
    if (!SUBORDINATORS.has(tokens[i]!.normal)) continue;
    const end = clauseEnd(tokens, i + 1);
    if (ownClauseVerb(tokens, i + 1, end) < 0) continue;
    const parts = [closed(tokens.slice(0, i), ''), [...tokens.slice(i + 1, end), ...tokens.slice(end)]];
    if (usable(parts)) return parts;
  }
  return null;
};

/** A past participle between commas after a noun: "The film, directed by Ang Lee, won …" → "The film was directed by Ang Lee." */
const participle: Rule = (tokens) => {
  for (let i = 0; i < tokens.length - 3; i++) {
    if (!endsWithComma(tokens[i]) || /;/.test(tokens[i]!.post)) continue;
    const first = tokens[i + 1]!;
    if (!/ed$|en$/.test(first.normal) || !(has(first, 'PastTense') || has(first, 'Participle') || has(first, 'Adjective'))) continue;
    const close = clauseEnd(tokens, i + 1) - 1;
    if (close >= tokens.length - 1 || !startsVerbPhrase(tokens, close + 1)) continue;
    const head = tokens.slice(nounPhraseStart(tokens, i, subjectStart(tokens)), i + 1);
    if (!head.length || !headOf(head) || hasVerb(head)) continue;
    const plural = has(headOf(head), 'Plural');
    const fact = [
      ...closed(head),
      word(plural ? 'were' : 'was', ['Verb', 'Copula', 'PastTense']),
      ...closed(tokens.slice(i + 1, close + 1), ''),
    ];
    const start = i + 1 - head.length;
    const main = [...tokens.slice(0, start), ...closed(head), ...tokens.slice(close + 1)];
    const parts = [main, fact];
    if (usable(parts)) return parts;
  }
  return null;
};

/** "… on a tour that starts in San Diego" → "… on a tour." + "U2's tour starts in San Diego." */
const restrictive: Rule = (tokens, ctx) => {
  const main = firstVerb(tokens, subjectStart(tokens));
  for (let i = main + 1; main >= 0 && i < tokens.length - 2; i++) {
    const t = tokens[i]!;
    if (endsWithComma(t) || !(has(t, 'Noun') || isName(t)) || isPronoun(t)) continue;
    if (!/^(?:that|which|who)$/.test(tokens[i + 1]!.normal) || !startsVerbPhrase(tokens, i + 2)) continue;
    const end = clauseEnd(tokens, i + 2);
    const head = tokens.slice(nounPhraseStart(tokens, i, main + 1), i + 1);
    const fact = [...definite(closed(head), ctx), ...tokens.slice(i + 2, end)];
    const rest = tokens.slice(end);
    const kept = [
      ...tokens.slice(0, i),
      withPost(t, rest.length ? (tokens[end - 1]!.post.includes(',') ? ', ' : ' ') : tokens[end - 1]!.post.replace(/^[)\]"”’]*/, '')),
      ...rest,
    ];
    const parts = [kept, fact];
    if (usable(parts)) return parts;
  }
  return null;
};

const RULES: Rule[] = [appositive, participle, nonRestrictive, semicolon, clauses, subordinate, verbPhrases, restrictive];

/** The owner a part may need: the first name in the sentence's subject. */
export function ownerOf(tokens: readonly Token[]): string | null {
  const { start, end } = subjectSpan(tokens);
  const names = tokens.slice(start, end).filter((t) => isName(t) && !has(t, 'Pronoun'));
  if (!names.length) return null;
  const first = tokens.indexOf(names[0]!);
  const run: Token[] = [];
  for (let k = first; k < end && isName(tokens[k]) && !has(tokens[k], 'Pronoun'); k++) {
    run.push(tokens[k]!);
    if (endsWithComma(tokens[k]) || has(tokens[k], 'Possessive')) break;
  }
  return run
    .map((t) => t.text)
    .join(' ')
    .replace(/['’]s$/i, '');
}

/** The sentence's atomic parts as token lists, in reading order (one part: not compound). */
export function splitTokens(tokens: readonly Token[], ctx: SplitContext = { owner: ownerOf(tokens) }): Token[][] {
  const queue: Token[][] = [[...tokens]];
  const done: Token[][] = [];
  while (queue.length) {
    const part = queue.shift()!;
    const room = MAX_PARTS - done.length - queue.length;
    const split = room > 1 ? RULES.reduce<Token[][] | null>((found, rule) => found ?? rule(part, ctx), null) : null;
    if (split) queue.unshift(...split);
    else done.push(part);
  }
  return done;
}

/** The parts as sentences, each once. */
export function splitClaim(tokens: readonly Token[], ctx?: SplitContext): string[] {
  return [...new Set(splitTokens(tokens, ctx).map(asSentence).filter(Boolean))];
}
