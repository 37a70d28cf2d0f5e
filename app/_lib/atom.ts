/**
 * Atom 1.0 (RFC 4287) documents, written by hand because the format is small and its rules are
 * exact: feed and entry ids are permanent IRIs, every feed and entry has a title and an updated time
 * (RFC 3339), the feed has an author (so entries need not), a self link and an alternate link, and
 * text is escaped (content type="text": nothing a reader would run). Pure.
 */
import crypto from 'node:crypto';

export interface AtomEntry {
  id: string;
  title: string;
  updated: Date;
  published?: Date | null;
  link: string;
  authorName?: string;
  summary: string;
  content: string;
  categories?: { term: string; label?: string }[];
}

export interface AtomFeedInput {
  id: string;
  title: string;
  subtitle?: string;
  updated: Date;
  selfUrl: string;
  alternateUrl: string;
  authorName: string;
  generator?: { name: string; uri?: string; version?: string };
  entries: AtomEntry[];
}

/** Text for XML: the special characters escaped, characters XML 1.0 forbids dropped. */
export function xmlText(s: string): string {
  return (
    s
      // eslint-disable-next-line no-control-regex -- XML 1.0 forbids these characters: they are dropped
      .replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]/g, '')
      .replace(/&/g, '&amp;')
      .replace(/</g, '&lt;')
      .replace(/>/g, '&gt;')
      .replace(/"/g, '&quot;')
  );
}

/** A name-based (version 5 style, SHA-1) UUID URN: a permanent, valid IRI for an Atom id. */
export function uuidUrn(name: string): string {
  const h = crypto.createHash('sha1').update(`quin-news:${name}`).digest();
  h[6] = (h[6]! & 0x0f) | 0x50;
  h[8] = (h[8]! & 0x3f) | 0x80;
  const hex = h.subarray(0, 16).toString('hex');
  return `urn:uuid:${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20, 32)}`;
}

const rfc3339 = (d: Date) => d.toISOString();

function entryXml(e: AtomEntry): string {
  const lines = [
    '  <entry>',
    `    <id>${xmlText(e.id)}</id>`,
    `    <title type="text">${xmlText(e.title)}</title>`,
    `    <updated>${rfc3339(e.updated)}</updated>`,
  ];
  if (e.published) lines.push(`    <published>${rfc3339(e.published)}</published>`);
  lines.push(`    <link rel="alternate" type="text/html" href="${xmlText(e.link)}"/>`);
  if (e.authorName) lines.push(`    <author><name>${xmlText(e.authorName)}</name></author>`);
  for (const c of e.categories ?? [])
    lines.push(`    <category term="${xmlText(c.term)}"${c.label ? ` label="${xmlText(c.label)}"` : ''}/>`);
  lines.push(
    `    <summary type="text">${xmlText(e.summary)}</summary>`,
    `    <content type="text">${xmlText(e.content)}</content>`,
    '  </entry>',
  );
  return lines.join('\n');
}

export function atomFeed(f: AtomFeedInput): string {
  const g = f.generator;
  return [
    '<?xml version="1.0" encoding="utf-8"?>',
    '<feed xmlns="http://www.w3.org/2005/Atom">',
    `  <id>${xmlText(f.id)}</id>`,
    `  <title type="text">${xmlText(f.title)}</title>`,
    ...(f.subtitle ? [`  <subtitle type="text">${xmlText(f.subtitle)}</subtitle>`] : []),
    `  <updated>${rfc3339(f.updated)}</updated>`,
    `  <link rel="self" type="application/atom+xml" href="${xmlText(f.selfUrl)}"/>`,
    `  <link rel="alternate" type="text/html" href="${xmlText(f.alternateUrl)}"/>`,
    `  <author><name>${xmlText(f.authorName)}</name></author>`,
    ...(g
      ? [
          `  <generator${g.uri ? ` uri="${xmlText(g.uri)}"` : ''}${g.version ? ` version="${xmlText(g.version)}"` : ''}>${xmlText(g.name)}</generator>`,
        ]
      : []),
    ...f.entries.map(entryXml),
    '</feed>',
    '',
  ].join('\n');
}
