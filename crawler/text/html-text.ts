/**
 * HTML fragments (a feed item's description or content) to plain text, cheaply and without a DOM:
 * block elements become line breaks (so that sentence splitting sees paragraphs), scripts, styles
 * and tags go, entities are decoded. Pure.
 */
import { decodeHTMLStrict } from 'entities';
import { replaceComments, replaceElements, replaceTags } from './markup';

/**
 * Every HTML5 named and numeric reference (the `entities` package), the terminating semicolon
 * required (a URL's "&copy=2" stays as written). Invisible formatting characters (soft hyphen,
 * zero-width joiners) and the replacement character of an invalid reference are dropped. A U+FFFD
 * already in the text stays: it marks where the bytes held an invalid sequence (text/charset.ts),
 * and the reader should see that something was there. (No reference spans one, so the text is
 * decoded piece by piece between them.)
 */
export function decodeEntities(s: string): string {
  return s
    .split('\ufffd')
    .map((piece) => decodeHTMLStrict(piece).replace(/\u00ad|\u200b|\u200c|\u200d|\ufffd/g, ''))
    .join('\ufffd');
}

const BLOCK = '\\/?(?:p|div|br|hr|li|ul|ol|h[1-6]|blockquote|pre|tr|table|section|article|header|footer|figure|figcaption|dd|dt)\\b';
const HIDDEN = ['script', 'style', 'noscript', 'template', 'svg'];

/** Comments, then hidden elements, then block tags (a line break), then every other tag (a space); in linear time (markup.ts). */
export function htmlToText(html: string | null | undefined): string {
  if (!html) return '';
  const blocks = replaceTags(replaceElements(replaceComments(html), HIDDEN), BLOCK, () => '\n');
  return decodeEntities(replaceTags(blocks, '', () => ' '))
    .replace(/[ \t\f\v\u00a0]+/g, ' ')
    .replace(/ *\n[\s]*/g, '\n')
    .trim();
}

/**
 * Markup that titles and names carry (inline and block elements of HTML, and any closing tag — nobody
 * writes "</x>" as text, and a broken document leaves them behind): dropped. Anything else in angle
 * brackets is text the publisher wrote — "Weekly <update>", "I <3 NY" — and stays, to be escaped
 * where it is shown. `[^<>]*` keeps the scan linear on runs of "<".
 */
const MARKUP =
  /<(?:\/?(?:a|abbr|b|big|blockquote|br|cite|code|del|dfn|div|em|font|h[1-6]|hr|i|img|ins|kbd|li|mark|ol|p|q|s|samp|small|span|strike|strong|sub|sup|time|tt|u|ul|var|wbr)(?:\s[^<>]*)?\/?|\/[a-z][\w:.-]*\s*)>/gi;

/** One line of plain text (titles, authors): known markup dropped, entities decoded, other "<…>" kept as text. */
export function inlineText(html: string | null | undefined): string {
  if (!html) return '';
  return decodeEntities(html.replace(MARKUP, ' ')).replace(/\s+/g, ' ').trim();
}
