/** Content-Type parsing and the types each kind of fetch accepts. Pure. */

export type Expect = 'feed' | 'html' | 'any';

export interface ContentType {
  mime: string | null;
  charset: string | null;
}

export function parseContentType(header: string | undefined): ContentType {
  if (!header) return { mime: null, charset: null };
  const [type, ...params] = header.split(';');
  const mime = type!.trim().toLowerCase() || null;
  let charset: string | null = null;
  for (const p of params) {
    const m = /^\s*charset\s*=\s*"?([^";\s]+)"?/i.exec(p);
    if (m) charset = m[1]!.toLowerCase();
  }
  return { mime, charset };
}

const FEED_TYPES =
  /^(?:application|text)\/(?:[\w.+-]*\+)?xml$|^application\/(?:rss|atom|rdf)(?:\+xml)?$|^text\/(?:plain|html|rss)$|^application\/(?:octet-stream|x-rss\+xml)$|^application\/(?:feed\+)?json$/;
const HTML_TYPES = /^text\/html$|^application\/xhtml\+xml$|^text\/plain$/;

/**
 * Null when the type is acceptable, else the reason. A missing type is accepted (many servers send
 * none). Feeds accept text/html so that the parser can say "this is an HTML page, not a feed".
 */
export function refuseType(expect: Expect, mime: string | null): string | null {
  if (expect === 'any' || mime === null) return null;
  const ok = expect === 'feed' ? FEED_TYPES.test(mime) : HTML_TYPES.test(mime);
  if (ok) return null;
  return `got ${mime}, expected ${expect === 'feed' ? 'an RSS, RDF or Atom feed (XML) or a JSON Feed' : 'an HTML page'}`;
}
