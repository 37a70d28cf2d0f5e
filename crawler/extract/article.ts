/**
 * An article page's main text: Readability on jsdom. jsdom runs no scripts (runScripts is left
 * unset) and loads no subresources (no resource loader): scripts and styles are even removed from
 * the markup before parsing, which also makes the DOM smaller. JSON-LD blocks are read first, for the
 * page's metadata. Paragraph breaks are kept so that sentence splitting sees them. Pure: HTML in,
 * ExtractedPage out.
 */
import { Readability } from '@mozilla/readability';
import { JSDOM, VirtualConsole } from 'jsdom';
import { chooseCanonical } from './canonical';
import { extractClaimReviews, type ClaimReviewData } from './claim-review';
import { inlineText } from '../text/html-text';
import { elementContents, replaceComments, replaceElements, replaceTags } from '../text/markup';
import { normalizeWhitespace } from '../text/sentences';
import { readPageMeta, type PageMeta } from './page-meta';

export interface ExtractedPage extends Omit<PageMeta, 'canonical'> {
  title: string | null;
  /** Main text with one paragraph a line; '' when Readability found nothing. */
  text: string;
  /** rel=canonical when on the same site, else the page URL; tracking parameters stripped. */
  canonicalUrl: string;
  /** Published fact-checks (schema.org ClaimReview) the page carries. */
  claimReviews: ClaimReviewData[];
}

// Readability gives up on documents with more elements than this (huge pages are rarely articles).
const MAX_ELEMENTS = 20_000;
// jsdom needs many times a page's size in memory: markup beyond this is cut (articles come early).
const MAX_HTML_CHARS = 3 * 1024 * 1024;
const BLOCKS = new Set([
  'P',
  'DIV',
  'SECTION',
  'ARTICLE',
  'LI',
  'H1',
  'H2',
  'H3',
  'H4',
  'H5',
  'H6',
  'BLOCKQUOTE',
  'PRE',
  'TR',
  'FIGCAPTION',
  'DD',
  'DT',
  'TABLE',
  'UL',
  'OL',
]);

/** The contents of `<script type="application/ld+json">` elements (linear in the page's size, text/markup.ts). */
export function jsonLdBlocks(html: string): string[] {
  return elementContents(html, 'script', /type\s*=\s*["']?application\/ld\+json/);
}

const ACTIVE = ['script', 'style', 'noscript', 'template', 'iframe', 'object', 'embed'];

const space = () => ' ';

/**
 * Active and embedded content removed from the markup, and comments with it: comments, "<?…>",
 * "<!…>" (but the doctype) and "</" + a non-letter are all comment nodes to an HTML parser, and
 * jsdom inserts thousands of them before the root element in quadratic time. Linear in the page's
 * size (text/markup.ts).
 */
export function stripActiveContent(html: string): string {
  const quiet = replaceTags(replaceElements(replaceComments(html), ACTIVE), '(?:script|iframe|img|source|video|audio)\\b', space);
  return replaceTags(quiet, '(?:\\?|!(?!doctype)|\\/(?![A-Za-z]))', space);
}

/** Text of an element with a line break after every block element and <br>. */
function blockText(root: Element): string {
  const parts: string[] = [];
  const walk = (node: Node) => {
    if (node.nodeType === 3) return void parts.push(node.nodeValue ?? '');
    if (node.nodeType !== 1) return;
    const el = node as Element;
    if (el.tagName === 'BR') return void parts.push('\n');
    const block = BLOCKS.has(el.tagName);
    if (block) parts.push('\n');
    for (const child of el.childNodes) walk(child);
    if (block) parts.push('\n');
  };
  walk(root);
  return normalizeWhitespace(parts.join(''))
    .split('\n')
    .map((l) => l.trim())
    .filter(Boolean)
    .join('\n');
}

export function extractArticle(html: string, pageUrl: string, now = new Date()): ExtractedPage {
  const ld = jsonLdBlocks(html);
  const dom = new JSDOM(stripActiveContent(html).slice(0, MAX_HTML_CHARS), {
    url: pageUrl,
    contentType: 'text/html',
    virtualConsole: new VirtualConsole(),
  });
  try {
    const doc = dom.window.document;
    const meta = readPageMeta(doc, ld, now);
    const docTitle = inlineText(doc.title) || null;
    let article: ReturnType<Readability<Node>['parse']> = null;
    try {
      article = new Readability<Node>(doc, { maxElemsToParse: MAX_ELEMENTS, serializer: (el: Node) => el }).parse();
    } catch {
      // Readability throws on documents it will not handle (e.g. over maxElemsToParse): no main text.
    }
    let text = article?.content ? blockText(article.content as Element) : '';
    const title = inlineText(article?.title) || docTitle;
    // Readability often keeps the headline as the first line; it is stored as the title already.
    if (title && text.split('\n', 1)[0] === title) text = text.slice(title.length).trimStart();
    return {
      title,
      text,
      canonicalUrl: chooseCanonical(pageUrl, meta.canonical),
      published: meta.published,
      author: meta.author ?? (inlineText(article?.byline) || null),
      siteName: meta.siteName ?? (inlineText(article?.siteName) || null),
      language: meta.language,
      claimReviews: extractClaimReviews(ld, pageUrl, now),
    };
  } finally {
    dom.window.close();
  }
}
