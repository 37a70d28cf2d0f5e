/** The check's limits, in a module of its own: the page's client bundle reads them without zod. */

/** Longest pasted text (characters): a long feature is about 30,000; past this, check it in parts. */
export const MAX_TEXT_CHARS = 60_000;
export const MAX_TITLE_CHARS = 500;
export const MAX_URL_CHARS = 2000;
/** Claims checked per article (later check-worthy sentences are listed as over the limit). */
export const MAX_CLAIMS = 40;
