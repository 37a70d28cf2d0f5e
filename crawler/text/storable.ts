/**
 * The crawler's one text boundary before the database: every string it writes (feed items, articles,
 * snippets, fact-checks, feed titles and folders, errors and events) passes through `storable`,
 * whatever the database. PostgreSQL refuses a NUL character in text ("invalid byte sequence for
 * encoding UTF8: 0x00"), which a feed can send as a raw byte or as "\u0000" in JSON; SQLite would
 * store it, and the same feed would then read differently on the two. So every control character
 * that is not whitespace is dropped: C0 (but tab, line feed, vertical tab, form feed, carriage
 * return), DEL and C1 (U+0080 to U+009F: U+009B is a terminal's escape introducer, and a title that
 * carries one rewrites the screen of whoever `cat`s a log or runs `quin feeds list`). NEL (U+0085)
 * is the one C1 line break: it becomes a space. Noncharacters (U+FDD0 to U+FDEF and the last two
 * code points of every plane, U+FFFE and U+FFFF among them) are not text either and are dropped;
 * a lone UTF-16 surrogate (half a character, which no database can encode) becomes U+FFFD.
 * Pure, linear.
 */

// eslint-disable-next-line no-control-regex -- these are the characters being removed
const CONTROL = /[\u0000-\u0008\u000e-\u001f\u007f-\u0084\u0086-\u009f]/g;
const NEL = /\u0085/g;
const NONCHARACTER = /\p{Noncharacter_Code_Point}/gu;
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

export function storableText(s: string): string {
  return s.replace(CONTROL, '').replace(NEL, ' ').replace(NONCHARACTER, '').replace(LONE_SURROGATE, '\ufffd');
}

/** A value with every string in it made storable (plain objects and arrays walked; Dates and the rest kept). */
export function storable<T>(value: T): T {
  if (typeof value === 'string') return storableText(value) as T;
  if (Array.isArray(value)) return value.map(storable) as T;
  if (value && typeof value === 'object' && Object.getPrototypeOf(value) === Object.prototype) {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) out[k] = storable(v);
    return out as T;
  }
  return value;
}
