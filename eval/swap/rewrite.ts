/**
 * Controlled rewrites of one news sentence into a claim, after Quin's Factual-NLI idea (labelled pairs
 * generated from text the product will read): meaning-preserving rewrites give SUPPORTED claims,
 * rewrites that change one fact give REFUTED ones. Pure and deterministic given the random source.
 *
 * Support: the core statement (attribution, parentheticals and trailing clauses dropped), modifiers
 * dropped, reviewed synonyms, a number re-expressed ("$52m" → "52 million dollars", "20%" → "a fifth"),
 * a leading time phrase moved to the end.
 * Contradict: the direction reversed ("rose" → "fell"), a negation added or removed, a number changed,
 * a name swapped for another of the same article, the roles of two names swapped.
 */
import lemmatizer from 'wink-lemmatizer';
import { quantities, type Quantity } from '../../ranking/verdict/details/quantities';

export type Rand = () => number;
export interface Rewrite {
  text: string;
  rule: string;
}

const pick = <T>(xs: readonly T[], rand: Rand): T => xs[Math.floor(rand() * xs.length)]!;
const tidy = (s: string) =>
  s
    .replace(/\s+/g, ' ')
    .replace(/\b([Aa])n? (?=[a-z])(\w)/g, (_, a: string, c: string) => `${a}${/[aeiou]/.test(c) ? 'n' : ''} ${c}`)
    .replace(/\s+([,.;:!?%])/g, '$1')
    .replace(/,\s*\./g, '.')
    .replace(/^[\s,;:]+/, '')
    .trim();
const sentenceCase = (s: string) => (s ? s[0]!.toUpperCase() + s.slice(1) : s);
const withStop = (s: string) => (/[.!?]$/.test(s) ? s : `${s}.`);

// --- support -------------------------------------------------------------------------------

const ATTRIBUTION_TAIL =
  /,?\s*(?:(?:he|she|they|it|officials?|analysts?|experts?|police|the (?:\w+ ){0,3}\w+|(?:mr|mrs|ms|dr)\.? \w+|[A-Z][\w'-]+(?: [A-Z][\w'-]+){0,3})\s+(?:said|says|told [\w ]{1,30}|added|reported|announced|explained|claimed|warned)(?:\s+(?:on|last|this|late|early|in|earlier|later)(?:\s+\w+){1,2})?|(?:said|says|according to) [^,.]{1,60})\s*\.?$/;
const ATTRIBUTION_HEAD =
  /^(?:according to [^,]{1,60},|[A-Z][\w'-]+(?: [A-Z][\w'-]+){0,3} (?:said|says|told [\w ]{1,30}|added|announced|warned) (?:that )?|(?:he|she|they|it) (?:said|says|added) (?:that )?)\s*/i;
const QUOTES = /["“”]/g;

/** The sentence without who said it, quotation marks and parenthetical remarks. */
export function coreStatement(s: string): string {
  let t = s
    .replace(QUOTES, '')
    .replace(/\s*\([^)]{0,80}\)/g, '')
    .replace(/\s+-\s+[^-]{0,80}\s+-\s+/g, ' ');
  t = t.replace(/[.!?]+$/, '');
  t = t.replace(ATTRIBUTION_TAIL, '');
  t = t.replace(ATTRIBUTION_HEAD, '');
  return tidy(t);
}

const CLAUSE_BREAK =
  /,\s+(?:which|who|while|whereas|although|though|after|before|as|with|but|and|following|despite|amid|because|making|leaving|taking|bringing|saying|according)\b/i;

/** Cuts a trailing subordinate clause ("…, which …", "…, after …") when enough is left to be a claim. */
export function dropTrailingClause(s: string): string | null {
  const m = CLAUSE_BREAK.exec(s);
  if (!m || s.slice(0, m.index).split(/\s+/).length < 5) return null;
  return s.slice(0, m.index);
}

const DROPPABLE_MODIFIERS = new Set(
  'new recent big major key latest further sharp sharply strong strongly slightly significantly considerably largely widely currently recently now still just also already only even about around some nearly almost roughly approximately'.split(
    ' ',
  ),
);

/** Drops adverbs and a few vague adjectives ("sharply", "new", "nearly"). */
export function dropModifiers(s: string): string | null {
  const words = s.split(' ');
  const kept = words.filter((w, i) => {
    const bare = w.toLowerCase().replace(/[^a-z]/g, '');
    if (i === 0) return true;
    return !(
      DROPPABLE_MODIFIERS.has(bare) ||
      (/ly$/.test(bare) &&
        bare.length > 5 &&
        !/^(only|early|daily|weekly|monthly|yearly|likely|family|italy|july|rally|apply|supply|reply|ally|fly|holy|jolly|assembly|anomaly|monopoly)$/.test(
          bare,
        ))
    );
  });
  return kept.length < words.length ? kept.join(' ') : null;
}

/** Reviewed synonyms for news verbs and nouns (every form is listed: no inflection is guessed). */
const SYNONYMS: Record<string, string[]> = {
  rose: ['increased', 'climbed'],
  rise: ['increase', 'climb'],
  rises: ['increases', 'climbs'],
  risen: ['increased'],
  fell: ['dropped', 'declined'],
  fall: ['drop', 'decline'],
  falls: ['drops', 'declines'],
  fallen: ['dropped'],
  increased: ['rose', 'grew'],
  decreased: ['fell', 'dropped'],
  grew: ['expanded', 'increased'],
  dropped: ['fell'],
  bought: ['acquired', 'purchased'],
  buy: ['acquire', 'purchase'],
  acquired: ['bought'],
  firm: ['company'],
  company: ['firm'],
  firms: ['companies'],
  companies: ['firms'],
  big: ['large'],
  large: ['big'],
  biggest: ['largest'],
  largest: ['biggest'],
  huge: ['enormous'],
  began: ['started'],
  started: ['began'],
  begin: ['start'],
  start: ['begin'],
  film: ['movie'],
  movie: ['film'],
  films: ['movies'],
  movies: ['films'],
  boss: ['chief executive'],
  cut: ['reduced'],
  cuts: ['reductions'],
  profits: ['earnings'],
  profit: ['earnings'],
  shares: ['stock'],
  jobs: ['posts'],
  help: ['assist'],
  helped: ['assisted'],
  quit: ['resigned'],
  resigned: ['stepped down'],
  warned: ['cautioned'],
  believe: ['think'],
  think: ['believe'],
  car: ['vehicle'],
  cars: ['vehicles'],
  phone: ['handset'],
  announced: ['unveiled'],
  unveiled: ['announced'],
  plans: ['intends'],
  sales: ['revenues'],
  record: ['all-time'],
  government: ['administration'],
  minister: ['secretary'],
  elected: ['voted in'],
  killed: ['left dead'],
  died: ['was killed'],
};

export function swapSynonym(s: string, rand: Rand): string | null {
  const words = s.split(' ');
  const idx = words.map((w, i) => (i > 0 && SYNONYMS[w.toLowerCase()] ? i : -1)).filter((i) => i >= 0);
  if (!idx.length) return null;
  const i = pick(idx, rand);
  words[i] = pick(SYNONYMS[words[i]!.toLowerCase()]!, rand);
  return words.join(' ');
}

const SCALE_WORD: [number, string][] = [
  [1e12, 'trillion'],
  [1e9, 'billion'],
  [1e6, 'million'],
];
const CURRENCY_WORD: Record<string, string> = { $: 'dollars', '£': 'pounds', '€': 'euros', '¥': 'yen' };
const FRACTION_WORD: Record<number, string> = { 50: 'half', 25: 'a quarter', 20: 'a fifth', 10: 'a tenth', 75: 'three quarters' };
const SMALL = ['zero', 'one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight', 'nine', 'ten', 'eleven', 'twelve'];

function trimNumber(x: number): string {
  return String(Math.round(x * 1000) / 1000);
}

/** The same amount written another way, or null when no other way is known. */
export function reexpress(q: Quantity, rand: Rand): string | null {
  if (q.kind === 'percent') {
    if (FRACTION_WORD[q.value] && rand() < 0.6) return FRACTION_WORD[q.value]!;
    return /per ?cent/i.test(q.text) ? `${trimNumber(q.value)}%` : `${trimNumber(q.value)} per cent`;
  }
  if (q.kind === 'money' || q.kind === 'count') {
    const scale = SCALE_WORD.find(([v]) => q.value >= v);
    const amount = scale ? `${trimNumber(q.value / scale[0])} ${scale[1]}` : q.value >= 1000 ? trimNumber(q.value) : null;
    if (scale && q.value / scale[0] === 0.5 && rand() < 0.5)
      return `half a ${scale[1]}${q.unit ? ` ${CURRENCY_WORD[q.unit] ?? ''}` : ''}`.trim();
    if (q.kind === 'count' && q.value <= 12 && Number.isInteger(q.value) && /\d/.test(q.text)) return SMALL[q.value]!;
    if (!amount) return null;
    if (q.kind === 'money') return rand() < 0.5 ? `${amount} ${CURRENCY_WORD[q.unit!] ?? 'dollars'}` : `${q.unit}${amount}`;
    return amount === q.text ? null : amount;
  }
  return null;
}

export function reexpressNumber(s: string, rand: Rand): string | null {
  const qs = quantities(s).filter((q) => q.kind !== 'year');
  if (!qs.length) return null;
  const q = pick(qs, rand);
  const r = reexpress(q, rand);
  if (!r || r === q.text) return null;
  return s.slice(0, q.start) + r + s.slice(q.end);
}

const LEADING_TIME = /^((?:on|in|last|this|earlier|later) [\w ]{2,25}?),\s+(.+)$/i;

export function moveTimePhrase(s: string): string | null {
  const m = LEADING_TIME.exec(s);
  if (!m) return null;
  return `${sentenceCase(m[2]!)} ${m[1]!.toLowerCase()}`;
}

const PHRASE_START = /^(in|on|at|for|with|from|after|since|during|amid|as|by|over|under|following|despite|because|when|while|to)$/i;

/** Keeps the first 8–16 words, cut before a prepositional or subordinate phrase (what a reader's short claim keeps). */
export function shorten(s: string, rand: Rand): string | null {
  const words = s.split(' ');
  if (words.length <= 10) return null;
  const cuts = words
    .map((w, i) => (i >= 6 && i <= 16 && PHRASE_START.test(w) && !/,$/.test(words[i - 1] ?? '') ? i : -1))
    .filter((i) => i > 0);
  if (!cuts.length) return null;
  return words
    .slice(0, pick(cuts, rand))
    .join(' ')
    .replace(/[,;:]$/, '');
}

const titleCase = (s: string) => {
  const words = s.split(' ').filter((w) => /^[a-z]/i.test(w));
  return words.length > 3 && words.filter((w) => /^[A-Z]/.test(w)).length / words.length > 0.6;
};

/** A claim the sentence supports: the core statement, then one or two meaning-preserving edits. */
export function supportRewrite(sentence: string, rand: Rand): Rewrite | null {
  let text = coreStatement(sentence);
  const rules: string[] = ['core'];
  const cut = dropTrailingClause(text);
  if (cut && rand() < 0.7) {
    text = cut;
    rules.push('clause');
  }
  const short = shorten(text, rand);
  if (short && rand() < 0.6) {
    text = short;
    rules.push('shorten');
  }
  const edits: [string, (s: string) => string | null][] = [
    ['modifiers', dropModifiers],
    ['synonym', (s) => swapSynonym(s, rand)],
    ['number', (s) => reexpressNumber(s, rand)],
    ['reorder', moveTimePhrase],
  ];
  for (const [name, f] of edits) {
    if (rand() < 0.5) continue;
    const r = f(text);
    if (r) {
      text = r;
      rules.push(name);
    }
  }
  text = withStop(sentenceCase(tidy(text)));
  if (text.split(/\s+/).length < 4 || text.length > 220) return null;
  // The sentence said again word for word teaches nothing a reader's paraphrase needs.
  if (tidy(text).replace(/[.!?]$/, '') === tidy(sentence.replace(QUOTES, '')).replace(/[.!?]$/, '')) return null;
  return { text, rule: rules.join('+') };
}

// --- contradict ----------------------------------------------------------------------------

/** Word forms with their opposite direction, both ways (every inflection written out). */
const OPPOSITE_FORMS: [string, string][] = [
  ['rise', 'fall'],
  ['rises', 'falls'],
  ['rose', 'fell'],
  ['risen', 'fallen'],
  ['rising', 'falling'],
  ['increase', 'decrease'],
  ['increases', 'decreases'],
  ['increased', 'decreased'],
  ['increasing', 'decreasing'],
  ['grow', 'shrink'],
  ['grows', 'shrinks'],
  ['grew', 'shrank'],
  ['grown', 'shrunk'],
  ['growing', 'shrinking'],
  ['growth', 'contraction'],
  ['gain', 'loss'],
  ['gains', 'losses'],
  ['gained', 'lost'],
  ['won', 'lost'],
  ['win', 'lose'],
  ['wins', 'loses'],
  ['winning', 'losing'],
  ['climbed', 'dropped'],
  ['jumped', 'slumped'],
  ['surged', 'plunged'],
  ['soared', 'tumbled'],
  ['widened', 'narrowed'],
  ['widen', 'narrow'],
  ['expanded', 'contracted'],
  ['strengthened', 'weakened'],
  ['improved', 'worsened'],
  ['improve', 'worsen'],
  ['boosted', 'cut'],
  ['raised', 'lowered'],
  ['raise', 'lower'],
  ['higher', 'lower'],
  ['more', 'fewer'],
  ['above', 'below'],
  ['up', 'down'],
  ['profit', 'loss'],
  ['profits', 'losses'],
  ['surplus', 'deficit'],
  ['approved', 'rejected'],
  ['accepted', 'rejected'],
  ['hired', 'fired'],
  ['bought', 'sold'],
  ['opened', 'closed'],
  ['best', 'worst'],
  ['first', 'last'],
  ['highest', 'lowest'],
  ['success', 'failure'],
  ['successful', 'unsuccessful'],
  ['guilty', 'innocent'],
  ['convicted', 'acquitted'],
  ['strong', 'weak'],
  ['stronger', 'weaker'],
  ['positive', 'negative'],
  ['majority', 'minority'],
  ['allowed', 'banned'],
  ['support', 'oppose'],
  ['supports', 'opposes'],
  ['supported', 'opposed'],
  ['increase', 'cut'],
  ['larger', 'smaller'],
  ['biggest', 'smallest'],
  ['record high', 'record low'],
  ['ahead', 'behind'],
  ['before', 'after'],
  ['earlier', 'later'],
  ['start', 'end'],
  ['started', 'ended'],
];
const OPPOSITE = new Map<string, string>();
for (const [a, b] of OPPOSITE_FORMS) {
  if (!OPPOSITE.has(a)) OPPOSITE.set(a, b);
  if (!OPPOSITE.has(b)) OPPOSITE.set(b, a);
}

export function reverseDirection(s: string, rand: Rand): string | null {
  const words = s.split(' ');
  const idx = words.map((w, i) => (OPPOSITE.has(w.toLowerCase().replace(/[,.;:]$/, '')) ? i : -1)).filter((i) => i >= 0);
  if (!idx.length) return null;
  const i = pick(idx, rand);
  const w = words[i]!;
  const bare = w.replace(/[,.;:]$/, '');
  const opp = OPPOSITE.get(bare.toLowerCase())!;
  words[i] = (/^[A-Z]/.test(bare) ? sentenceCase(opp) : opp) + w.slice(bare.length);
  return words.join(' ');
}

const AUX = /\b(is|are|was|were|has|have|had|will|would|can|could|should|must|may|might)\b(?!\s+not\b|n't)/i;
export const NEGATED =
  /\b(is|are|was|were|has|have|had|will|would|can|could|should|must|does|do|did)\s+not\b|\b(isn|aren|wasn|weren|hasn|haven|hadn|won|wouldn|couldn|shouldn|doesn|don|didn)'t\b|\bno longer\b|\bnever\b/i;
const IRREGULAR_PAST: Record<string, string> = {
  said: 'say',
  made: 'make',
  won: 'win',
  lost: 'lose',
  rose: 'rise',
  fell: 'fall',
  grew: 'grow',
  bought: 'buy',
  sold: 'sell',
  took: 'take',
  gave: 'give',
  went: 'go',
  came: 'come',
  left: 'leave',
  held: 'hold',
  met: 'meet',
  paid: 'pay',
  saw: 'see',
  told: 'tell',
  found: 'find',
  became: 'become',
  began: 'begin',
  beat: 'beat',
  hit: 'hit',
  cut: 'cut',
  put: 'put',
  set: 'set',
  ran: 'run',
  led: 'lead',
  got: 'get',
  kept: 'keep',
  brought: 'bring',
  thought: 'think',
  built: 'build',
  spent: 'spend',
  sent: 'send',
  wrote: 'write',
  chose: 'choose',
  struck: 'strike',
};
const PAST_OF = Object.fromEntries(Object.entries(IRREGULAR_PAST).map(([p, b]) => [b, p]));

/** Adds a negation after the first auxiliary, or turns the first past-tense verb into "did not <verb>". */
export function addNegation(s: string): string | null {
  const m = AUX.exec(s);
  const words = s.split(' ');
  // A past-tense verb after the subject (not the first word): "-ed" or a known irregular form.
  const vi = words.findIndex(
    (w, i) =>
      i > 0 &&
      i < 8 &&
      (IRREGULAR_PAST[w.toLowerCase()] || /^[a-z]{3,}ed$/.test(w)) &&
      !/^(need|speed|seed|feed|bed|red|shed|bred|fled|led|wed|hundred|based|aged|armed|skilled|united|used)$/i.test(w),
  );
  if (m && (vi < 0 || m.index < s.indexOf(words[vi]!))) return s.slice(0, m.index + m[0].length) + ' not' + s.slice(m.index + m[0].length);
  if (vi < 0) return null;
  const w = words[vi]!;
  const base = IRREGULAR_PAST[w.toLowerCase()] ?? lemmatizer.verb(w.toLowerCase());
  if (!base || base === w.toLowerCase()) return null;
  words.splice(vi, 1, 'did', 'not', base);
  return words.join(' ');
}

function pastOf(base: string): string {
  if (PAST_OF[base]) return PAST_OF[base]!;
  if (base.endsWith('e')) return `${base}d`;
  if (/[^aeiou]y$/.test(base)) return `${base.slice(0, -1)}ied`;
  return `${base}ed`;
}

/** Removes a negation ("did not win" → "won", "is not" → "is", "no longer" → "still"). */
export function removeNegation(s: string): string | null {
  const didNot = /\b(?:did not|didn't) (\w+)/i.exec(s);
  if (didNot) return s.slice(0, didNot.index) + pastOf(didNot[1]!.toLowerCase()) + s.slice(didNot.index + didNot[0].length);
  if (!NEGATED.test(s)) return null;
  return tidy(
    s
      .replace(/\b(is|are|was|were|has|have|had|will|would|can|could|should|must|does|do)\s+not\b/i, '$1')
      .replace(/\b(is|are|was|were|has|have|had|would|could|should|does|do)n't\b/i, '$1')
      .replace(/\bwon't\b/i, 'will')
      .replace(/\bno longer\b/i, 'still')
      .replace(/\bnever\b/i, 'once'),
  );
}

/** A different amount of the same kind, written in the same style. */
export function changeAmount(q: Quantity, rand: Rand): string {
  const digits = q.text.match(/\d[\d,]*(?:\.\d+)?/)?.[0];
  if (q.kind === 'year') return String(q.value + pick([-3, -2, -1, 1, 2, 3], rand));
  if (!digits) {
    // A spelled-out amount: state a clearly different one in digits.
    const v = Math.max(2, Math.round(q.value * pick([0.5, 2, 3], rand)));
    return q.kind === 'percent' ? `${v}%` : String(v);
  }
  const n = Number(digits.replace(/,/g, ''));
  const decimals = digits.includes('.') ? digits.split('.')[1]!.length : 0;
  let v = n * pick([0.5, 2, 3, 10, 0.1, 1.5], rand);
  if (decimals === 0) v = Math.round(v);
  if (v === n) v = n + 1;
  let out = decimals ? v.toFixed(decimals) : String(v);
  if (digits.includes(',') && v >= 1000) out = Math.round(v).toLocaleString('en-US');
  return q.text.replace(digits, out);
}

export function changeNumber(s: string, rand: Rand): string | null {
  const qs = quantities(s);
  if (!qs.length) return null;
  const q = pick(qs, rand);
  return s.slice(0, q.start) + changeAmount(q, rand) + s.slice(q.end);
}

const NAME = /(?<=\s)[A-Z][a-z'’-]{2,}(?:\s[A-Z][a-z'’-]{2,}){0,2}/g;
const NOT_NAMES = new Set([
  'The',
  'But',
  'And',
  'This',
  'That',
  'However',
  'Monday',
  'Tuesday',
  'Wednesday',
  'Thursday',
  'Friday',
  'Saturday',
  'Sunday',
  'January',
  'February',
  'March',
  'April',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
  'Mr',
  'Mrs',
]);

/** Capitalised names after the first word (a cheap stand-in for a named-entity tagger). */
export function namesIn(s: string): string[] {
  return [...new Set((s.match(NAME) ?? []).filter((n) => !NOT_NAMES.has(n.split(' ')[0]!)))];
}

/** Replaces one name with another one of the same article (same kind of thing, most likely). */
export function swapName(s: string, pool: readonly string[], rand: Rand): string | null {
  const here = namesIn(s);
  if (!here.length) return null;
  const target = pick(here, rand);
  const words = target.split(' ').length;
  const options = pool.filter((p) => p.split(' ').length === words && !here.some((h) => h.includes(p) || p.includes(h)));
  if (!options.length) return null;
  return s.replace(target, pick(options, rand));
}

const ROLE_VERBS =
  'beat|defeated|overtook|bought|acquired|sued|replaced|succeeded|trailed|outsold|outscored|thrashed|edged|knocked out|eliminated';
const ROLES = new RegExp(`\\b([A-Z][\\w'’.-]+(?: [A-Z][\\w'’.-]+){0,2}) (${ROLE_VERBS}) ([A-Z][\\w'’.-]+(?: [A-Z][\\w'’.-]+){0,2})`);

const NAME_RE = "[A-Z][\\w'’.&-]+(?: [A-Z][\\w'’.&-]+){0,3}";
// "X bought a stake in Y from Z" → "Z bought a stake in Y from X"; "sold … to".
const FROM_TO = new RegExp(
  `\\b(${NAME_RE}) (bought|acquired|purchased|took over|sold|transferred|lent|loaned|sent) ([^,.;]{2,60}?) (from|to) (${NAME_RE})`,
);
// "from 157,000 to 133,000" → "from 133,000 to 157,000": the change goes the other way.
const FROM_TO_NUMBERS =
  /\bfrom ((?:[$£€])?\d[\d,.]*(?:\s?(?:%|pct|per cent|mln|bln|million|billion|dlrs))?) to ((?:[$£€])?\d[\d,.]*(?:\s?(?:%|pct|per cent|mln|bln|million|billion|dlrs))?)/;

export function swapRoles(s: string): string | null {
  const m = ROLES.exec(s);
  if (m && m[1] !== m[3]) return s.slice(0, m.index) + `${m[3]} ${m[2]} ${m[1]}` + s.slice(m.index + m[0].length);
  const f = FROM_TO.exec(s);
  if (f && f[1] !== f[5]) return s.slice(0, f.index) + `${f[5]} ${f[2]} ${f[3]} ${f[4]} ${f[1]}` + s.slice(f.index + f[0].length);
  const n = FROM_TO_NUMBERS.exec(s);
  if (n && n[1] !== n[2]) return s.slice(0, n.index) + `from ${n[2]} to ${n[1]}` + s.slice(n.index + n[0].length);
  return null;
}

/** A claim the sentence refutes: its core statement with one fact changed. */
export function contradictRewrite(sentence: string, names: readonly string[], rand: Rand): Rewrite | null {
  let base = coreStatement(sentence);
  const cut = dropTrailingClause(base);
  if (cut && rand() < 0.7) base = cut;
  const short = shorten(base, rand);
  if (short && rand() < 0.6) base = short;
  // Every rule that applies is a candidate; rarer kinds of change weigh more (negation applies to almost any sentence).
  const rules: [string, number, (s: string) => string | null][] = [
    ['direction', 3, (s) => reverseDirection(s, rand)],
    ['negation', 1, (s) => (NEGATED.test(s) ? removeNegation(s) : addNegation(s))],
    ['number', 2, (s) => changeNumber(s, rand)],
    ['name', 1.5, (s) => (titleCase(s) ? null : swapName(s, names, rand))],
    ['roles', 4, swapRoles],
  ];
  const options: { rule: string; weight: number; text: string }[] = [];
  for (const [rule, weight, f] of rules) {
    const out = f(base);
    if (!out || out === base) continue;
    const text = withStop(sentenceCase(tidy(out)));
    if (text.split(/\s+/).length >= 4 && text.length <= 220) options.push({ rule, weight, text });
  }
  if (!options.length) return null;
  let r = rand() * options.reduce((a, o) => a + o.weight, 0);
  for (const o of options) if ((r -= o.weight) <= 0) return { text: o.text, rule: o.rule };
  return { text: options.at(-1)!.text, rule: options.at(-1)!.rule };
}

// "did not say it began…" does not refute that it began: it only stops reporting it.
const REPORTING_NEGATED =
  /\b(?:not|n't)\s+(?:say|said|says|tell|told|announce[sd]?|report(?:ed|s)?|claim(?:ed|s)?|confirm(?:ed|s)?|rather|expect(?:ed|s)?|think|thought|believe[sd]?)\b/i;
const contentWordsOf = (s: string) => new Set((s.toLowerCase().match(/[\p{L}\p{N}]{3,}/gu) ?? []).filter((w) => !STOP_WORDS.has(w)));
const STOP_WORDS = new Set(
  'the and for with from that this was were are has have had not its his her their they she him them than then into onto over under about after before'.split(
    ' ',
  ),
);

/**
 * A negation removes no word: it must negate what the claim states, i.e. a word of the claim (by its
 * first four letters: "star" / "starred") within the six words after the "not".
 */
function negatesClaim(negated: string, said: ReadonlySet<string>): boolean {
  const at = negated.search(/\bnot\b/);
  if (at < 0) return false;
  const stems = new Set([...said].map((w) => w.slice(0, 4)));
  return [
    ...contentWordsOf(
      negated
        .slice(at + 4)
        .split(/\s+/)
        .slice(0, 6)
        .join(' '),
    ),
  ].some((w) => stems.has(w.slice(0, 4)));
}

/**
 * Evidence that refutes `claim`, made from evidence that supports it: one fact of the evidence
 * changed (a number, a name, the direction, a negation), the rest of the sentence kept. The change
 * must touch a word the claim states (a changed fact the claim does not rely on would still support
 * it). With the original pair it makes a symmetric pair — the same claim with supporting and refuting
 * evidence — so that the claim alone cannot tell the label (Schuster et al., 2019).
 */
export function refutingEvidence(evidence: string, claim: string, names: readonly string[], rand: Rand): Rewrite | null {
  const said = contentWordsOf(claim);
  const rules: [string, (s: string) => string | null][] = [
    ['number', (s) => changeNumber(s, rand)],
    // Only full names (two words or more): single capitalised words are too often a nationality or a common noun.
    [
      'name',
      (s) =>
        swapName(
          s,
          names.filter((n) => n.includes(' ')),
          rand,
        ),
    ],
    ['direction', (s) => reverseDirection(s, rand)],
    ['negation', (s) => (NEGATED.test(s) ? removeNegation(s) : addNegation(s))],
  ];
  const options: Rewrite[] = [];
  for (const [rule, f] of rules) {
    const out = f(evidence);
    if (!out || out === evidence || REPORTING_NEGATED.test(out)) continue;
    const before = contentWordsOf(evidence);
    const after = contentWordsOf(out);
    const removed = [...before].filter((w) => !after.has(w));
    const touches = rule === 'negation' ? negatesClaim(out, said) : removed.some((w) => said.has(w));
    if (touches) options.push({ text: tidy(out), rule: `sym-${rule}` });
  }
  return options.length ? pick(options, rand) : null;
}
