/**
 * Markup scanning in linear time, for text a feed or a page sends. A global `replace` with a pattern
 * such as `<[^>]*>` or `<!--[\s\S]*?-->` is quadratic on a hostile document: at every "<" (or
 * "<!--") without an end, the engine scans to the end of the text and fails, then tries again from
 * the next character (250,000 "<" took minutes). These functions give the same result as those
 * patterns, but find each end once: a search that failed is never repeated from a later start, and
 * a search that succeeded is reused while it stays ahead. Pure.
 *
 * crawler/linear-time.slow.test.ts runs every text function of the crawler on 1 MB of hostile input.
 */

/** The first match of `pattern` at or after `from`; calls with a non-decreasing `from` scan the text once in all. */
export type Finder = (from: number) => RegExpExecArray | null;

/** `pattern` must not itself backtrack across the text (no nested or overlapping unbounded quantifiers). */
export function finder(text: string, pattern: RegExp): Finder {
  const re = new RegExp(pattern.source, pattern.flags.includes('g') ? pattern.flags : `${pattern.flags}g`);
  let last: RegExpExecArray | null | undefined;
  let lastFrom = -1;
  return (from) => {
    if (from >= lastFrom && last !== undefined && (last === null || last.index >= from)) return last;
    lastFrom = from;
    re.lastIndex = from;
    last = re.exec(text);
    return last;
  };
}

/**
 * `open … close` sections replaced (the first `close` after each `open`, as `<!--[\s\S]*?-->` does);
 * an `open` without a `close` after it, and everything after it, stays as it is.
 */
export function replaceSections(text: string, open: string, close: string, replacement: string): string {
  let out = '';
  let pos = 0;
  for (;;) {
    const start = text.indexOf(open, pos);
    if (start < 0) break;
    const end = text.indexOf(close, start + open.length);
    if (end < 0) break;
    out += text.slice(pos, start) + replacement;
    pos = end + close.length;
  }
  return pos === 0 ? text : out + text.slice(pos);
}

/** HTML comments replaced (`<!--[\s\S]*?-->`). */
export function replaceComments(text: string, replacement = ' '): string {
  return replaceSections(text, '<!--', '-->', replacement);
}

const escapeRe = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * Elements with their content replaced, names matched without regard to case: what
 * `<(a|b)\b[\s\S]*?<\/\1\s*>` replaces with the gi flags (each element ends at the first closing tag
 * of its name; an element that is never closed stays, and its tag is left to the tag strip).
 */
export function replaceElements(text: string, names: readonly string[], replacement = ' '): string {
  const open = new RegExp(`<(${names.map(escapeRe).join('|')})\\b`, 'gi');
  const closes = new Map<string, Finder>();
  const closeOf = (name: string) => {
    let f = closes.get(name);
    if (!f) closes.set(name, (f = finder(text, new RegExp(`<\\/${escapeRe(name)}\\s*>`, 'gi'))));
    return f;
  };
  let out = '';
  let pos = 0;
  open.lastIndex = 0;
  for (let m = open.exec(text); m; m = open.exec(text)) {
    const close = closeOf(m[1]!.toLowerCase())(m.index + m[0].length);
    if (!close) {
      open.lastIndex = m.index + 1;
      continue;
    }
    out += text.slice(pos, m.index) + replacement;
    pos = open.lastIndex = close.index + close[0].length;
  }
  return pos === 0 ? text : out + text.slice(pos);
}

/**
 * Each tag `<` + head … `>` (up to the first ">" after the head, which is what `<head[^>]*>` matches)
 * passed to `replace`. `head` is the part of the pattern after "<" (empty: every tag); it must not
 * match ">".
 */
export function replaceTags(text: string, head: string, replace: (tag: string) => string): string {
  const open = new RegExp(`<${head}`, 'gi');
  let out = '';
  let pos = 0;
  for (let m = open.exec(text); m; m = open.exec(text)) {
    const gt = text.indexOf('>', m.index + m[0].length);
    // No ">" after this head: none after any later head either.
    if (gt < 0) break;
    out += text.slice(pos, m.index) + replace(text.slice(m.index, gt + 1));
    pos = open.lastIndex = gt + 1;
  }
  return pos === 0 ? text : out + text.slice(pos);
}

/** Each tag `<` + head … `>` (see replaceTags), in document order. */
export function findTags(text: string, head: string): string[] {
  const tags: string[] = [];
  replaceTags(text, head, (tag) => {
    tags.push(tag);
    return '';
  });
  return tags;
}

/**
 * The contents of the elements `<name …>…</name>` whose start tag has a match of `attribute`: what
 * `<name\b[^>]*ATTRIBUTE[^>]*>([\s\S]*?)<\/name\s*>` (gi) captures. `attribute` must not match ">".
 */
export function elementContents(text: string, name: string, attribute: RegExp): string[] {
  const open = new RegExp(`<${escapeRe(name)}\\b`, 'gi');
  const attr = finder(text, new RegExp(attribute.source, 'gi'));
  const close = finder(text, new RegExp(`<\\/${escapeRe(name)}\\s*>`, 'gi'));
  const out: string[] = [];
  for (let m = open.exec(text); m; m = open.exec(text)) {
    const start = m.index + m[0].length;
    const gt = text.indexOf('>', start);
    if (gt < 0) break;
    const a = attr(start);
    const c = a && a.index < gt ? close(gt + 1) : null;
    if (!c) {
      open.lastIndex = m.index + 1;
      continue;
    }
    out.push(text.slice(gt + 1, c.index));
    open.lastIndex = c.index + c[0].length;
  }
  return out;
}
