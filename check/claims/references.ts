/**
 * Each claim made to stand alone: a sentence that opens with "It", "He", "Its" or "The company"
 * means someone named earlier, and a search for "It lost 464,000 subscribers" finds nothing. Read in
 * reading order, the memory keeps the names seen in the title and the sentences before:
 *
 * - "He", "She", "His", "Her" → the person named last (by the full name first used: "Parsons" after
 *   "Richard Parsons" is still Richard Parsons);
 * - "It", "Its" → the organisation in the subject of the sentence before (the thing the text was just
 *   talking about), else the one named last;
 * - "The company", "the firm", "the group" … → the organisation the article is about (named most
 *   often so far, the title counting twice): news prose calls its main company "the company" and
 *   turns "it" to whatever the sentence before was about.
 *
 * Only the opening subject of a sentence (after "But", "However," …) is rewritten; pronouns later in
 * a sentence refer back within it, to a subject already resolved. Pure (one memory per article).
 */
import { subjectSpan, subjectStart } from './spans';
import { has, isName, joinTokens, tokenize, type Token } from './tokens';

/** Nouns that, after "the", name an organisation the text has already named ("the firm"). */
const ORG_NOUNS = new Set(
  `company firm group business bank carrier airline retailer club band giant chain manufacturer maker network broadcaster
  studio label insurer lender operator conglomerate corporation publisher developer startup start-up supermarket brand team
  party agency regulator watchdog`
    .split(/\s+/)
    .filter(Boolean),
);

export interface Resolution {
  /** The words replaced and what replaced them, for the report ("It" → "AOL"). */
  from: string;
  to: string;
}

interface Name {
  text: string;
  person: boolean;
}

const key = (name: string) => name.toLowerCase().replace(/[^\p{L}\p{N}]/gu, '');
const stripPossessive = (text: string) => text.replace(/['’]s$/i, '');

/** Runs of name words (split at commas and brackets), each as a person or an organisation; places and dates left out. */
export function namesIn(tokens: readonly Token[]): Name[] {
  const out: Name[] = [];
  let run: Token[] = [];
  const flush = () => {
    const words = run.filter((t) => !has(t, 'Date') && !has(t, 'Month') && !has(t, 'WeekDay') && !has(t, 'Value'));
    run = [];
    if (!words.length || words.every((t) => has(t, 'Place'))) return;
    // "Coach Tom Berg", "Chief executive Marta Olsen": the person's name starts at their first name.
    const firstName = words.findIndex((t) => has(t, 'Person'));
    const named = firstName > 0 ? words.slice(firstName) : words;
    const text = stripPossessive(named.map((t) => t.text).join(' ')).replace(/[()]/g, '');
    if (text.length > 1) out.push({ text, person: firstName >= 0 });
  };
  tokens.forEach((t, i) => {
    // "Bank of England", "Port of Kessling": "of" between two names is part of the name.
    const joins = t.normal === 'of' && run.length > 0 && !/[,;()]/.test(tokens[i - 1]!.post) && isName(tokens[i + 1]);
    if ((isName(t) && !has(t, 'Pronoun')) || joins) run.push(t);
    else flush();
    if (/[,;()]/.test(t.post)) flush();
  });
  flush();
  return out;
}

/** Whether token i stands inside a quotation that opened before it (or with it). */
function insideQuote(tokens: readonly Token[], i: number): boolean {
  let open = false;
  for (let k = 0; k <= i; k++) {
    const marks = `${tokens[k]!.pre}${k < i ? tokens[k]!.post : ''}`.match(/["“”]/g)?.length ?? 0;
    if (marks % 2) open = !open;
  }
  return open;
}

/** "It is likely that …", "It was a surprise to …": an "it" that stands for what follows, not for a name. */
function isExpletive(tokens: readonly Token[], i: number): boolean {
  if (!/^(?:is|was|'s|seems|seemed|appears|appeared|remains|remained)$/.test(tokens[i + 1]?.normal ?? '')) return false;
  const after = tokens[i + 2];
  if (!has(after, 'Adjective') && !has(after, 'Determiner') && !has(after, 'Adverb')) return false;
  return tokens.slice(i + 3, i + 10).some((t) => t.normal === 'that' || t.normal === 'to' || t.normal === 'whether');
}

export class ReferenceMemory {
  private lastPerson: string | null = null;
  private subjectPerson: string | null = null;
  private subjectOrg: string | null = null;
  private lastOrg: string | null = null;
  private readonly fullNames = new Map<string, string>();
  private readonly orgCounts = new Map<string, { text: string; count: number; first: number }>();
  private seen = 0;

  constructor(title?: string | null) {
    if (title) {
      const tokens = tokenize(title);
      this.remember(tokens, 2);
      [this.subjectOrg, this.subjectPerson] = [null, null];
    }
  }

  /** The sentence with its opening reference resolved, and what was replaced. */
  resolve(tokens: readonly Token[]): { tokens: Token[]; resolutions: Resolution[] } {
    const i = subjectStart(tokens);
    const t = tokens[i];
    // Inside a quote a pronoun is the speaker's ("His ability is undoubted", said the coach): left as it is.
    if (!t || insideQuote(tokens, i)) return { tokens: [...tokens], resolutions: [] };
    const found = this.referentAt(tokens, i);
    if (!found) return { tokens: [...tokens], resolutions: [] };
    const replaced = tokens.slice(i, i + found.length);
    const words = tokenize(found.possessive ? `${found.name}'s` : found.name);
    words[0] = { ...words[0]!, pre: replaced[0]!.pre };
    words[words.length - 1] = { ...words[words.length - 1]!, post: replaced[replaced.length - 1]!.post };
    const from = replaced.map((r) => r.text).join(' ');
    // Tagged again as a whole: compromise reads "AOL lost …" better than "It lost …" with a name pasted in.
    return {
      tokens: tokenize(joinTokens([...tokens.slice(0, i), ...words, ...tokens.slice(i + found.length)])),
      resolutions: [{ from, to: found.possessive ? `${found.name}'s` : found.name }],
    };
  }

  private referentAt(tokens: readonly Token[], i: number): { name: string; length: number; possessive: boolean } | null {
    const t = tokens[i]!;
    const org = this.subjectOrg ?? this.lastOrg;
    const person = this.subjectPerson ?? this.lastPerson;
    if ((t.normal === 'he' || t.normal === 'she') && person) return { name: person, length: 1, possessive: false };
    if ((t.normal === 'his' || t.normal === 'her') && person && has(tokens[i + 1], 'Noun'))
      return { name: person, length: 1, possessive: true };
    if (t.normal === 'it' && org && !isExpletive(tokens, i)) return { name: org, length: 1, possessive: false };
    if (t.normal === 'its' && org) return { name: org, length: 1, possessive: true };
    const next = tokens[i + 1];
    if (t.normal === 'the' && next && ORG_NOUNS.has(next.normal.replace(/['’]s$/, '')) && this.topicOrg()) {
      return { name: this.topicOrg()!, length: 2, possessive: /['’]s$/.test(next.text) };
    }
    return null;
  }

  private topicOrg(): string | null {
    let best: { text: string; count: number; first: number } | null = null;
    for (const o of this.orgCounts.values())
      if (!best || o.count > best.count || (o.count === best.count && o.first < best.first)) best = o;
    return best?.text ?? this.lastOrg;
  }

  /** Learns the names of a sentence (already resolved); `weight` counts the title's names twice. */
  remember(tokens: readonly Token[], weight = 1): void {
    const names = namesIn(tokens);
    for (const n of names) {
      if (n.person) this.rememberPerson(n.text);
      else this.rememberOrg(n.text, weight);
    }
    const subject = subjectSpan(tokens);
    const inSubject = namesIn(tokens.slice(subject.start, subject.end));
    this.subjectOrg = inSubject.filter((n) => !n.person && !this.isKnownPerson(n.text)).at(-1)?.text ?? null;
    const person = inSubject.find((n) => n.person || this.isKnownPerson(n.text));
    this.subjectPerson = person ? (this.fullNames.get(key(person.text)) ?? person.text) : null;
  }

  private isKnownPerson(text: string): boolean {
    return this.fullNames.has(key(text));
  }

  /** A known organisation whose name holds this one's words, or whose words this one holds. */
  private sameOrg(text: string): { text: string; count: number; first: number } | undefined {
    const words = new Set(text.toLowerCase().split(/\s+/));
    for (const o of this.orgCounts.values()) {
      const other = o.text.toLowerCase().split(/\s+/);
      if (other.every((w) => words.has(w)) || [...words].every((w) => other.includes(w))) return o;
    }
    return undefined;
  }

  private rememberPerson(text: string): void {
    const words = text.split(/\s+/);
    const full = words.length > 1 ? text : (this.fullNames.get(key(text)) ?? text);
    if (words.length > 1) this.fullNames.set(key(words.at(-1)!), text);
    this.fullNames.set(key(full), full);
    this.lastPerson = full;
  }

  private rememberOrg(text: string, weight: number): void {
    // A surname alone ("Parsons said") is the person named before, not an organisation.
    if (this.isKnownPerson(text)) return void (this.lastPerson = this.fullNames.get(key(text))!);
    const k = key(text);
    const entry = this.orgCounts.get(k) ?? this.sameOrg(text) ?? { text, count: 0, first: this.seen++ };
    entry.count += weight;
    // One organisation under its short and full names ("Kessling", "Port of Kessling"): the full one is shown.
    if (text.length > entry.text.length) entry.text = text;
    this.orgCounts.set(k, entry);
    this.lastOrg = entry.text;
  }
}
