/**
 * The word lists the check-worthiness rules read. Small on purpose: each word is one that, in news
 * text, marks a sentence as a judgement or a feeling rather than a statement of fact; a sentence that
 * also carries a number or a date is still checked (see worthiness.ts).
 */

/** Words of judgement ("a disgrace", "brilliant"): the sentence says what someone thinks of a thing. */
export const EVALUATIVE = new Set(
  `absurd amazing appalling astonishing awful awesome beautiful brilliant dazzling delightful disastrous disgrace disgraceful
  disgusting dreadful excellent fabulous fantastic glorious gorgeous horrible horrific incredible lovely magnificent marvellous
  marvelous outrageous pathetic perfect ridiculous scandalous shameful shocking silly splendid stunning stupid superb terrible
  tremendous ugly unacceptable wonderful woeful worthless inspiring inspirational heroic cowardly disgusting hilarious boring
  overrated underrated sensational remarkable impressive extraordinary`
    .split(/\s+/)
    .filter(Boolean),
);

/** Words of feeling ("delighted", "heartbroken"): a quote of how someone feels settles nothing. */
export const FEELINGS = new Set(
  `delighted thrilled happy sad proud excited disappointed devastated heartbroken pleased upset angry furious shocked saddened
  grateful thankful honoured honored overjoyed worried anxious saddened gutted elated ecstatic sorry relieved frustrated hopeful
  optimistic pessimistic confident nervous scared afraid ashamed embarrassed humbled touched moved love loved hate hated
  enjoy enjoyed feel feels felt thrilling privilege blessed`
    .split(/\s+/)
    .filter(Boolean),
);

/** First-person openers of an opinion ("I think", "in my view"), outside a quote. */
export const OPINION_OPENERS =
  /\b(?:i|we)\s+(?:think|believe|feel|reckon|suspect|guess|suppose|hope|wish|doubt)\b|\bin\s+(?:my|our)\s+(?:view|opinion)\b|\b(?:my|our)\s+(?:view|opinion)\s+is\b|\bit\s+seems\s+to\s+me\b|\bi'?m\s+(?:sure|convinced)\b/i;

/** Advice and demands ("the government should act"): what ought to be, not what is. */
export const PRESCRIPTIVE = /\b(?:should|shouldn'?t|ought\s+to)\b/i;

/**
 * Page furniture that extraction can leave in an article's text: sharing and sign-up prompts, image
 * credits, copyright lines, bylines of agencies, "read more" links.
 */
export const BOILERPLATE: readonly RegExp[] = [
  /^(?:click|tap)\s+(?:here|to)\b/i,
  /\bsign\s+up\b.*\b(?:newsletter|updates|emails?)\b/i,
  /\bsubscribe\b.*\b(?:newsletter|channel|podcast|updates|today|now)\b/i,
  /\ball\s+rights\s+reserved\b/i,
  /(?:^|\s)(?:©|\(c\)|copyright\s+(?:©\s*)?\d{4})/i,
  /\bfollow\s+(?:us|me|him|her|them)\s+on\b/i,
  /^(?:read|see|watch|listen)\s+(?:more|also|the\s+full)\b/i,
  /^(?:related|more)\s*(?:articles|stories|topics|on this story)?\s*:/i,
  /\bshare\s+(?:this|on)\s+(?:article|story|facebook|twitter|whatsapp|email)\b/i,
  /^(?:advertisement|sponsored|promoted)\b/i,
  /\b(?:we\s+use\s+)?cookies?\b.*\b(?:accept|consent|policy|browsing)\b/i,
  /^(?:image|photo|picture|video)\s*(?:caption|copyright|credit|source)?\s*[:,]/i,
  /^(?:getty\s+images|reuters|ap|afp|pa\s+media)$/i,
  /\b(?:reporting|writing|editing|additional\s+reporting)\s+by\s+\p{Lu}/iu,
  /\bcontributed\s+to\s+this\s+report\b/i,
  /\b(?:this\s+(?:article|story)\s+(?:was\s+)?(?:originally\s+)?(?:published|appeared))\b/i,
  /^(?:updated|published|posted|last\s+modified)\s*:?\s*\d/i,
  /\b(?:e-?mail|contact)\s+us\s+at\b/i,
];

/** A web or mail address: a short sentence holding one is a link, not a statement. */
export const ADDRESS = /https?:\/\/\S+|www\.\S+|\S+@\S+\.\w+/i;
