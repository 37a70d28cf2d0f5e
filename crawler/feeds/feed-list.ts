/**
 * The feed list in and out (OPML import and export for the CLI and the dashboard; the default list is
 * added the same way). Imported feeds are
 * added without being fetched first (a list of hundreds would take minutes): the crawler checks them
 * at its next pass and the dashboard shows what fails. Feeds already crawled are left as they are,
 * except that a folder, title or site address they lack is filled in from the file.
 */
import type { Db } from '../../lib/db/client';
import { isQuinError } from '../../lib/errors';
import type { Config } from '../../lib/config';
import { admitFeed } from './admit';
import { storable } from '../text/storable';
import type { OpmlDocument, OpmlFeed, OpmlSkipped } from './opml';

export interface FeedListImport {
  added: { id: number; url: string; title: string | null; category: string | null }[];
  existing: { id: number; url: string }[];
  skipped: OpmlSkipped[];
}

/** Adds the list's feeds under the one rule for new feeds (admit.ts); refused ones are listed in `skipped` with the reason. */
export async function importFeedList(
  db: Db,
  config: Pick<Config, 'allowPrivateHosts'>,
  doc: Pick<OpmlDocument, 'feeds' | 'skipped'>,
  opts: { intervalMinutes: number },
): Promise<FeedListImport> {
  const out: FeedListImport = { added: [], existing: [], skipped: [...doc.skipped] };
  for (const f of doc.feeds) {
    const known = await db.feed.findUnique({ where: { url: f.xmlUrl } });
    if (known) {
      const fill = { title: known.title ?? f.title, category: known.category ?? f.category, siteUrl: known.siteUrl ?? f.htmlUrl };
      if (fill.title !== known.title || fill.category !== known.category || fill.siteUrl !== known.siteUrl)
        await db.feed.update({ where: { id: known.id }, data: storable(fill) });
      out.existing.push({ id: known.id, url: known.url });
      continue;
    }
    try {
      const feed = await admitFeed(db, config, f.xmlUrl, { intervalMinutes: opts.intervalMinutes, title: f.title });
      await db.feed.update({ where: { id: feed.id }, data: storable({ category: f.category, siteUrl: f.htmlUrl }) });
      out.added.push({ id: feed.id, url: feed.url, title: feed.title, category: f.category });
    } catch (e) {
      if (isQuinError(e, 'CONFLICT')) out.existing.push({ id: Number(e.details?.id ?? 0), url: f.xmlUrl });
      else if (isQuinError(e, 'INVALID_INPUT')) out.skipped.push({ url: f.xmlUrl, reason: e.message });
      else throw e;
    }
  }
  return out;
}

/** Every feed as an OPML entry, by folder then title. */
export async function feedListForExport(db: Db): Promise<OpmlFeed[]> {
  const feeds = await db.feed.findMany({ select: { url: true, title: true, siteUrl: true, category: true }, orderBy: [{ id: 'asc' }] });
  return feeds
    .map((f) => ({ xmlUrl: f.url, title: f.title, htmlUrl: f.siteUrl, category: f.category }))
    .sort((a, b) => (a.category ?? '').localeCompare(b.category ?? '') || (a.title ?? a.xmlUrl).localeCompare(b.title ?? b.xmlUrl));
}
