/**
 * An article's claims, in reading order: its sentences split as the crawler splits them (paragraph by
 * paragraph, crawler/text/sentences.ts), each sentence's opening reference resolved from the title and
 * the sentences before (references.ts), the check-worthy ones kept (worthiness.ts) and each of those
 * split into its atomic parts (split.ts). Every sentence is accounted for: a claim, or left out with
 * its reason. At most `maxClaims` claims per article; later check-worthy sentences are listed as
 * over the limit. Pure.
 */
import { splitSentences } from '../../crawler';
import type { Detail } from './details';
import { ReferenceMemory, type Resolution } from './references';
import { ownerOf, splitTokens } from './split';
import { asSentence, tokenize, type Token } from './tokens';
import { judgeSentence, quotedText, type SkipReason } from './worthiness';
import { MAX_CLAIMS } from '../schema';

export interface Sentence {
  /** Position in the article (0-based, reading order). */
  index: number;
  paragraph: number;
  text: string;
  /** The claim this sentence became, or why it was left out. */
  claim: number | null;
  skipped: SkipReason | 'over_limit' | null;
}

export interface Claim {
  /** 0-based, in reading order. */
  id: number;
  sentence: number;
  /** The sentence as the article has it. */
  text: string;
  /** The sentence standing alone: its opening reference resolved ("It" → "AOL"). */
  standalone: string;
  resolutions: Resolution[];
  /** The atomic parts (one: the claim is not compound). */
  parts: string[];
  details: Detail[];
}

export interface Extraction {
  sentences: Sentence[];
  claims: Claim[];
}

export interface ExtractOptions {
  maxClaims?: number;
}

/**
 * An acronym that is also an abbreviation the crawler keeps together ("by the SEC. The company
 * said"): the crawler merges the two sentences (its snippets do not mind), but a claim must be one
 * sentence, so they are cut again before a common sentence opener.
 */
const ACRONYM_END = /(?<=\b\p{Lu}{2,}\.)\s+(?=(?:The|A|An|It|He|She|They|We|This|That|But|And|However|Its|His|Her|Their)\s)/u;

/** The article's sentences, paragraph by paragraph (a line break always ends a sentence, as in the crawler). */
export function articleSentences(text: string): { paragraph: number; text: string }[] {
  return text
    .split(/\n+/)
    .filter((p) => p.trim())
    .flatMap((p, paragraph) => splitSentences(p).flatMap((s) => s.split(ACRONYM_END).map((part) => ({ paragraph, text: part.trim() }))));
}

/** Words that tie a sentence to the one before ("But", "However,"): a claim standing alone drops them. */
const OPENING_CONNECTIVES = new Set([
  'but',
  'and',
  'however',
  'yet',
  'meanwhile',
  'moreover',
  'furthermore',
  'nonetheless',
  'nevertheless',
]);

function withoutOpeningConnective(tokens: Token[]): Token[] {
  let i = 0;
  while (i < tokens.length - 4 && OPENING_CONNECTIVES.has(tokens[i]!.normal) && !/["“]/.test(tokens[i]!.pre)) i++;
  return i ? tokens.slice(i) : tokens;
}

/** A sentence that is mostly a quote is one claim (the speaker's); others are split into their parts. */
function partsOf(standalone: string, tokens: readonly Token[]): string[] {
  if (quotedText(standalone).length > standalone.length * 0.3) return [standalone];
  const parts = [
    ...new Set(
      splitTokens(tokens, { owner: ownerOf(tokens) })
        .map(asSentence)
        .filter(Boolean),
    ),
  ];
  return parts.length > 1 ? parts : [standalone];
}

export function extractClaims(article: { title?: string | null; text: string }, opts: ExtractOptions = {}): Extraction {
  const maxClaims = opts.maxClaims ?? MAX_CLAIMS;
  const memory = new ReferenceMemory(article.title);
  const sentences: Sentence[] = [];
  const claims: Claim[] = [];
  for (const [index, s] of articleSentences(article.text).entries()) {
    const resolved = memory.resolve(tokenize(s.text));
    memory.remember(resolved.tokens);
    const tokens = withoutOpeningConnective(resolved.tokens);
    const resolutions = resolved.resolutions;
    const standalone = tokens.length < resolved.tokens.length || resolutions.length ? asSentence(tokens) : s.text;
    const judged = judgeSentence(standalone, tokens);
    const sentence: Sentence = { index, paragraph: s.paragraph, text: s.text, claim: null, skipped: null };
    sentences.push(sentence);
    if (!judged.worthy) sentence.skipped = judged.reason;
    else if (claims.length >= maxClaims) sentence.skipped = 'over_limit';
    else {
      sentence.claim = claims.length;
      const parts = partsOf(standalone, tokens);
      claims.push({
        id: claims.length,
        sentence: index,
        text: s.text,
        standalone,
        resolutions,
        parts,
        details: judged.details,
      });
    }
  }
  return { sentences, claims };
}
