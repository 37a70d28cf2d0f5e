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
// The end of a piece that isFalseBreak reads: a delimiter, up to six letters and a period.
const TAIL = 8;
// Characters handed to Intl.Segmenter at once (longer paragraphs are read in windows).
const SEGMENT_WINDOW = 4096;

let segmenter: Intl.Segmenter | undefined;
function getSegmenter(): Intl.Segmenter {
  segmenter ??= new Intl.Segmenter('en', { granularity: 'sentence' });
  return segmenter;
}

/** True when the break between `prev` and `next` is a false break after an abbreviation. */
export function isFalseBreak(prev: string, next: string): boolean {
  // Only the end of `prev` matters (an abbreviation is at most 6 letters, a period and what precedes
  // them): testing the last 8 characters keeps the check constant-time however long `prev` grew.
  const end = prev.trimEnd();
  const m = /(?:^|[\s("'“‘])([A-Za-z]{1,6})\.$/.exec(end.length > TAIL ? end.slice(-TAIL) : end);
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

/**
 * ICU's segments of a paragraph, read a window at a time: Intl.Segmenter slows down quadratically
 * on one long string with many breaks (128 KB of "J. " took 9 s). Each window after the first starts
 * where the previous window's last (possibly cut) segment started, so breaks are where ICU puts them;
 * a window that is one long sentence is passed on whole (capLength splits such runs anyway).
 */
function* segments(paragraph: string): Generator<string> {
  let start = 0;
  while (start < paragraph.length) {
    let end = Math.min(paragraph.length, start + SEGMENT_WINDOW);
    // Never between the two halves of a surrogate pair.
    if (end < paragraph.length && /[\ud800-\udbff]/.test(paragraph[end - 1]!)) end--;
    const parts = Array.from(getSegmenter().segment(paragraph.slice(start, end)), (s) => s.segment);
    if (end === paragraph.length || parts.length === 1) {
      yield* parts;
      start = end;
      continue;
    }
    const last = parts.pop()!;
    yield* parts;
    start = end - last.length;
  }
}

/** Splits text into sentences. Paragraph breaks (blank lines or single newlines) always end a sentence. */
export function splitSentences(text: string): string[] {
  const out: string[] = [];
  for (const paragraph of normalizeWhitespace(text).split(/\n+/)) {
    if (!paragraph.trim()) continue;
    // Each piece is a list of segments; `tail` is the end of the last piece, whitespace trimmed (what
    // isFalseBreak reads), and `rawTail` its untrimmed end: no piece is re-read as it grows.
    const pieces: string[][] = [];
    let rawTail = '';
    let tail = '';
    for (const segment of segments(paragraph)) {
      const merge = pieces.length > 0 && isFalseBreak(tail, segment);
      const before = merge ? rawTail : '';
      if (merge) pieces[pieces.length - 1]!.push(segment);
      else pieces.push([segment]);
      const trimmed = segment.trimEnd();
      if (trimmed || !merge) tail = (before + trimmed).slice(-TAIL);
      rawTail = (before + segment).slice(-TAIL);
    }
    for (const p of pieces) {
      const t = p.join('').replace(/\s+/g, ' ').trim();
      if (t) out.push(...capLength(t));
    }
  }
  return out;
}
