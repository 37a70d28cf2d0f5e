/**
 * HTML fragments (a feed item's description or content) to plain text, cheaply and without a DOM:
 * block elements become line breaks (so that sentence splitting sees paragraphs), scripts, styles
 * and tags go, entities are decoded. Pure.
 */
import { decodeHTMLStrict } from 'entities';

/**
 * Every HTML5 named and numeric reference (the `entities` package), the terminating semicolon
 * required (a URL's "&copy=2" stays as written). Invisible formatting characters (soft hyphen,
 * zero-width joiners) and the replacement character of an invalid reference are dropped.
 */
export function decodeEntities(s: string): string {
  return decodeHTMLStrict(s).replace(/\u00ad|\u200b|\u200c|\u200d|\ufffd/g, '');
}

const BLOCK = /<\/?(?:p|div|br|hr|li|ul|ol|h[1-6]|blockquote|pre|tr|table|section|article|header|footer|figure|figcaption|dd|dt)\b[^>]*>/gi;

export function htmlToText(html: string | null | undefined): string {
  if (!html) return '';
  return decodeEntities(
    html
      .replace(/<!--[\s\S]*?-->/g, ' ')
      .replace(/<(script|style|noscript|template|svg)\b[\s\S]*?<\/\1\s*>/gi, ' ')
      .replace(BLOCK, '\n')
      .replace(/<[^>]*>/g, ' '),
  )
    .replace(/[ \t\f\v\u00a0]+/g, ' ')
    .replace(/ *\n[\s]*/g, '\n')
    .trim();
}

/** One line of plain text (titles, authors). */
export function inlineText(html: string | null | undefined): string {
  return htmlToText(html).replace(/\s+/g, ' ').trim();
}
