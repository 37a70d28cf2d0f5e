/**
 * The crawler's one text boundary before the database: every string it writes (feed items, articles,
 * snippets, fact-checks, feed titles, errors and events) passes through `storable`, whatever the
 * database. PostgreSQL refuses a NUL character in text ("invalid byte sequence for encoding UTF8:
 * 0x00"), which a feed can send as a raw byte or as "\u0000" in JSON; SQLite would store it, and the
 * same feed would then read differently on the two. So NUL and the other control characters that are
 * not whitespace are dropped, and a lone UTF-16 surrogate (half a character, which no database can
 * encode) becomes U+FFFD. Pure, linear.
 */

// eslint-disable-next-line no-control-regex -- these are the characters being removed
const CONTROL = /[\u0000-\u0008\u000e-\u001f]/g;
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

export function storableText(s: string): string {
  return s.replace(CONTROL, '').replace(LONE_SURROGATE, '\ufffd');
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
