/**
 * Sentence splitting: Intl.Segmenter (full ICU) plus the merges it needs. ICU already keeps
 * "U.S.", "e.g." and "3.5%" together but breaks after titles ("Dr."), month abbreviations ("Jan.")
 * and initials ("J. K. Rowling"); those breaks are undone here. Pure: text in, sentences out.
 */

// Lower-cased, without the final period. A break after one of these is never a sentence end
// when the next sentence starts with a capital letter or a digit (which is how they misfire).
const ABBREVIATIONS = new Set([
  'mr',
  'mrs',
  'ms',
  'mx',
  'dr',
  'prof',
  'sr',
  'jr',
  'st',
  'rev',
  'fr',
  'hon',
  'pres',
  'gov',
  'sen',
  'rep',
  'gen',
  'lt',
  'col',
  'capt',
  'cmdr',
  'sgt',
  'maj',
  'adm',
  'supt',
  'insp',
  'det',
  'jan',
  'feb',
  'mar',
  'apr',
  'jun',
  'jul',
  'aug',
  'sep',
  'sept',
  'oct',
  'nov',
  'dec',
  'mon',
  'tue',
  'tues',
  'wed',
  'thu',
  'thur',
  'thurs',
  'fri',
  'sat',
  'sun',
  'no',
  'nos',
  'vol',
  'vols',
  'fig',
  'figs',
  'eq',
  'ref',
  'refs',
  'ch',
  'sec',
  'pp',
  'p',
  'para',
  'vs',
  'v',
  'etc',
  'approx',
  'est',
  'dept',
  'univ',
  'assn',
  'bros',
  'inc',
  'corp',
  'co',
  'ltd',
  'llc',
  'plc',
  'ave',
  'blvd',
  'rd',
  'mt',
  'ft',
  'al',
  'cf',
  'ca',
  'viz',
]);

// Words that legitimately end a sentence even though they look like an abbreviation above.
const SENTENCE_FINAL_OK = new Set(['no', 'co', 'us', 'sat', 'sun', 'mar', 'may', 'est', 'al', 'p', 'v']);

const MAX_SENTENCE_CHARS = 1200;

let segmenter: Intl.Segmenter | undefined;
function getSegmenter(): Intl.Segmenter {
  segmenter ??= new Intl.Segmenter('en', { granularity: 'sentence' });
  return segmenter;
}

/** True when the break between `prev` and `next` is a false break after an abbreviation. */
export function isFalseBreak(prev: string, next: string): boolean {
  const m = /(?:^|[\s("'“‘])([A-Za-z]{1,6})\.$/.exec(prev.trimEnd());
  if (!m) return false;
  const word = m[1]!;
  const lower = word.toLowerCase();
  const nextStart = next.trimStart();
  if (nextStart === '') return false;
  // A single capital letter is an initial ("J. K. Rowling", "George W. Bush").
  if (/^[A-Z]$/.test(word)) return /^[A-Z]/.test(nextStart);
  if (!ABBREVIATIONS.has(lower)) return false;
  // "... signed a deal with Acme Co. The company said ..." is a real end; keep those breaks when the
  // next word is a common sentence opener.
  if (SENTENCE_FINAL_OK.has(lower) && /^(The|A|An|It|He|She|They|We|I|This|That|But|And|In|On|At|However)\b/.test(nextStart)) {
    return false;
  }
  // Titles and months are followed by a name or a number; otherwise trust ICU.
  return /^[A-Z0-9]/.test(nextStart) || /^[a-z]/.test(nextStart);
}

/** Splits very long runs without punctuation (lists, tables) at whitespace so windows stay bounded. */
function capLength(sentence: string): string[] {
  if (sentence.length <= MAX_SENTENCE_CHARS) return [sentence];
  const out: string[] = [];
  let rest = sentence;
  while (rest.length > MAX_SENTENCE_CHARS) {
    let cut = rest.lastIndexOf(' ', MAX_SENTENCE_CHARS);
    if (cut < MAX_SENTENCE_CHARS / 2) cut = MAX_SENTENCE_CHARS;
    out.push(rest.slice(0, cut).trim());
    rest = rest.slice(cut).trim();
  }
  if (rest) out.push(rest);
  return out;
}

export function normalizeWhitespace(text: string): string {
  return text
    .replace(/[\u00a0\u2007\u202f]/g, ' ')
    .replace(/[ \t\f\v]+/g, ' ')
    .replace(/ *\n */g, '\n')
    .trim();
}

/** Splits text into sentences. Paragraph breaks (blank lines or single newlines) always end a sentence. */
export function splitSentences(text: string): string[] {
  const out: string[] = [];
  for (const paragraph of normalizeWhitespace(text).split(/\n+/)) {
    if (!paragraph.trim()) continue;
    const pieces: string[] = [];
    for (const { segment } of getSegmenter().segment(paragraph)) {
      const prev = pieces[pieces.length - 1];
      if (prev !== undefined && isFalseBreak(prev, segment)) pieces[pieces.length - 1] = prev + segment;
      else pieces.push(segment);
    }
    for (const p of pieces) {
      const t = p.replace(/\s+/g, ' ').trim();
      if (t) out.push(...capLength(t));
    }
  }
  return out;
}
