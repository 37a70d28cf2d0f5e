/**
 * Where an XML document's root element starts: after whitespace, the XML declaration, processing
 * instructions, comments and the doctype (with its internal subset). A scanner, not a pattern: the
 * pattern that did this backtracked exponentially on a run of comments or PIs before junk (forty
 * "<!--a-->" froze the process). Pure.
 */
const SPACE = /\s*/y;
const NAME = /[A-Za-z_][\w.:-]*/y;
const DOCTYPE = /<!DOCTYPE/iy;
const SUBSET_END = /\]\s*>/g;
const DOCTYPE_BODY = /[^>[]*/y;
const DOCTYPE_END = /\s*>/y;

function sticky(re: RegExp, text: string, at: number): RegExpExecArray | null {
  re.lastIndex = at;
  return re.exec(text);
}

/** The root element's name and the index of its "<", or null when the prolog is broken or no element follows. */
export function rootElement(text: string): { name: string; index: number } | null {
  let i = 0;
  for (;;) {
    i += sticky(SPACE, text, i)![0].length;
    if (text.startsWith('<?', i)) {
      const end = text.indexOf('?>', i + 2);
      if (end < 0) return null;
      i = end + 2;
    } else if (text.startsWith('<!--', i)) {
      const end = text.indexOf('-->', i + 4);
      if (end < 0) return null;
      i = end + 3;
    } else if (sticky(DOCTYPE, text, i)) {
      const j = i + 9 + sticky(DOCTYPE_BODY, text, i + 9)![0].length;
      if (text[j] === '[') {
        SUBSET_END.lastIndex = j + 1;
        const end = SUBSET_END.exec(text);
        if (!end) return null;
        i = end.index + end[0].length;
      } else {
        const end = sticky(DOCTYPE_END, text, j);
        if (!end) return null;
        i = j + end[0].length;
      }
    } else if (text[i] === '<') {
      const name = sticky(NAME, text, i + 1);
      return name ? { name: name[0], index: i } : null;
    } else return null;
  }
}
