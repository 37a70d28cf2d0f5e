/**
 * Word lists a reader uses to see that two sentences disagree, reviewed by hand for news and science
 * text: negations, hedges, universal quantifiers, and directions (up / down) whose opposites are
 * antonyms even where WordNet lists none ("grew" / "shrank", "beat" / "lost to").
 */

/** Negation cues (lower case, single words; "n't" arrives as its own token or inside "didn't"). */
export const NEGATIONS = new Set([
  'not',
  'no',
  'never',
  'none',
  'nobody',
  'nothing',
  'neither',
  'nor',
  'without',
  'cannot',
  "n't",
  'nt',
  'fail',
  'fails',
  'failed',
  'failing',
  'unable',
  'lack',
  'lacks',
  'lacked',
  'lacking',
  'absence',
  'absent',
  'denied',
  'denies',
  'deny',
  'refused',
  'refuses',
  "didn't",
  "doesn't",
  "don't",
  "isn't",
  "aren't",
  "wasn't",
  "weren't",
  "won't",
  "wouldn't",
  "can't",
  "couldn't",
  "hasn't",
  "haven't",
  "hadn't",
  "shouldn't",
  'didnt',
  'doesnt',
  'dont',
  'isnt',
  'arent',
  'wasnt',
  'werent',
  'wont',
  'cant',
  'couldnt',
  'hasnt',
  'havent',
]);

/**
 * Verbs that say something did not or will not happen ("will defer paying" = "will not pay"): read as
 * negations, so that they agree with an explicit "not" on the other side.
 */
export const NEGATIVE_VERBS = new Set(
  'defer defers deferred deferring postpone postpones postponed suspend suspends suspended halt halts halted cancel cancels cancelled canceled scrap scraps scrapped abandon abandons abandoned refrain refrains refrained avoid avoids avoided'.split(
    ' ',
  ),
);

/** Hedges and modality: the text reports a possibility, a plan or a forecast, not a fact. */
export const HEDGES = new Set([
  'may',
  'might',
  'could',
  'possibly',
  'possible',
  'perhaps',
  'likely',
  'unlikely',
  'probably',
  'expected',
  'expects',
  'expect',
  'plan',
  'plans',
  'planned',
  'planning',
  'proposed',
  'proposes',
  'propose',
  'considering',
  'consider',
  'considers',
  'reportedly',
  'allegedly',
  'alleged',
  'suggest',
  'suggests',
  'suggested',
  'appears',
  'appear',
  'seems',
  'potential',
  'potentially',
  'predicted',
  'predicts',
  'forecast',
  'forecasts',
  'hopes',
  'hope',
  'aims',
  'aim',
  'intends',
  'intend',
  'would',
  'should',
  'if',
  'whether',
  'rumoured',
  'rumored',
  'speculation',
  'threatens',
  'threatened',
  'warned',
  'warns',
]);

/** Universal claims that one counter-example refutes and "some" does not support. */
export const UNIVERSALS = new Set([
  'all',
  'every',
  'always',
  'only',
  'none',
  'never',
  'entirely',
  'completely',
  'solely',
  'everyone',
  'nobody',
]);

/**
 * Directions: +1 up / more / success, −1 down / less / failure. Two words of opposite direction are
 * antonyms for the aligner; two of the same direction are near-synonyms ("rose" ~ "increased").
 * Lemmas (wink-lemmatizer's verb / noun / adjective readings of a word are looked up).
 */
export const DIRECTION: Record<string, 1 | -1> = Object.fromEntries([
  ...'increase rise grow gain climb jump surge soar rally rebound recover boost raise lift hike expand widen strengthen improve accelerate up higher high more greater larger bigger top exceed outperform peak double triple quadruple growth upturn upswing skyrocket leap'
    .split(' ')
    .map((w) => [w, 1] as const),
  ...'decrease fall drop decline shrink lose slip slide sink tumble plunge slump dip ease cut reduce lower lessen contract narrow weaken worsen deteriorate slow down low lower less fewer smaller reduction fall decline loss downturn halve retreat plummet dive sag shed dwindle diminish soften'
    .split(' ')
    .map((w) => [w, -1] as const),
]);

/** The direction of a word by the first of its lemmas that has one (undefined: no direction). */
export const directionOf = (lemmas: readonly string[]): 1 | -1 | undefined => lemmas.map((l) => DIRECTION[l]).find(Boolean);

/**
 * Words that name a level, not a movement: "retreated from four-month highs", "high oil prices",
 * "a record low". Beside a claim's "fell" or "rose" they say where something stands, not which way it
 * went, so they neither confirm nor contradict it by direction (the sentence's own verb does); the
 * same word still matches itself. Surface forms: "peaked" and "topped" move.
 */
export const LEVELS = new Set(['high', 'highs', 'low', 'lows', 'top', 'peak', 'peaks']);

/** Comparatives that name a level when they qualify a noun after a determiner ("the higher prices"); "closed higher" moves. */
export const COMPARATIVE_LEVELS = new Set(['higher', 'lower', 'greater', 'larger', 'bigger', 'smaller', 'more', 'less', 'fewer']);

/**
 * Opposites WordNet lacks or buries in rare senses, both ways. Each group's words oppose every word of
 * the other group of the same line.
 */
const OPPOSITES: [string, string][] = [
  ['win victory beat triumph', 'lose loss'],
  ['profit surplus', 'loss deficit'],
  ['approve accept pass ratify endorse back support confirm sign', 'reject refuse veto oppose block vote_down turn_down throw_out'],
  ['welcome praise hail applaud', 'attack criticise criticize condemn slam'],
  ['keep retain', 'strip'],
  ['reach hit meet achieve', 'miss'],
  ['add', 'subtract knock_off wipe_off knock'],
  ['up', 'down'],
  ['allow permit legalise legalize lift', 'ban forbid prohibit outlaw'],
  ['hire recruit', 'fire sack lay'],
  ['buy purchase acquire', 'sell'],
  ['open', 'close shut'],
  ['start begin launch', 'end stop halt finish scrap'],
  ['first', 'last'],
  ['best', 'worst'],
  ['success succeed', 'failure fail'],
  ['guilty convict convicted', 'innocent acquit acquitted cleared'],
  ['elect elected', 'defeat defeated'],
  ['lead ahead', 'trail behind'],
  ['above over', 'below under'],
  ['before earlier', 'after later'],
  ['strong robust', 'weak fragile'],
  ['positive', 'negative'],
  ['majority', 'minority'],
  ['boom recovery expansion', 'recession bust contraction slump'],
  ['activate stimulate promote induce enhance upregulate agonist', 'inhibit suppress block prevent impair downregulate antagonist'],
  ['dependent', 'independent'],
  ['associate associated correlate correlated link linked', 'unrelated unassociated independent uncorrelated'],
  ['sufficient', 'insufficient'],
  ['effective efficacious', 'ineffective'],
  ['safe', 'unsafe dangerous harmful'],
  ['increase elevate elevated', 'decrease reduce reduced'],
  ['rich wealthy', 'poor'],
  ['warm warmer warming heat', 'cool cooler cooling cold'],
  ['include', 'exclude'],
  ['present presence', 'absent absence'],
  ['confirm', 'deny'],
  ['join', 'leave quit'],
  ['common widespread frequent', 'rare scarce'],
];

export const REVIEWED_ANTONYMS: Map<string, Set<string>> = (() => {
  const m = new Map<string, Set<string>>();
  const add = (a: string, b: string) => {
    if (a === b) return;
    if (!m.has(a)) m.set(a, new Set());
    m.get(a)!.add(b);
  };
  for (const [left, right] of OPPOSITES) {
    // Multi-word entries are written with underscores ("vote_down"): the aligner joins collocations with spaces.
    const words = (g: string) => g.split(' ').map((w) => w.replace(/_/g, ' '));
    for (const a of words(left))
      for (const b of words(right)) {
        add(a, b);
        add(b, a);
      }
  }
  return m;
})();

/** Prefixes that negate a word ("unaffected", "non-smokers", "insufficient", "disagree"). */
export const NEGATING_PREFIXES = ['un', 'non', 'in', 'im', 'dis', 'il', 'ir'];
