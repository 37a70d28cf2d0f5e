import { isQuinError } from '../../../lib/errors';
import { isZodError, readableZodError } from '../../../lib/web/http';
import { seeOther } from '../../_lib/admin-auth';
import { adminSession, api } from '../../_lib/api';
import {
  addCheckedFeed,
  changeFeed,
  deleteFeed,
  importOpml,
  refreshAllFeeds,
  seedDefaultFeeds,
  type FeedDeps,
} from '../../_lib/feed-admin';
import { withFlash } from '../../_lib/forms';
import { whenCheckedText } from '../../_lib/next-check';
import { services } from '../../_lib/services';
import { feedForm, type FeedForm } from './schema';

export const dynamic = 'force-dynamic';

const DONE = { pause: 'paused', resume: 'resumed' } as const;

async function readForm(req: Request): Promise<{ fields: Record<string, string>; file: File | null }> {
  const form = await req.formData();
  const fields: Record<string, string> = {};
  let file: File | null = null;
  for (const [k, v] of form.entries()) {
    if (typeof v === 'string') fields[k] = v;
    else if (k === 'opml') file = v;
  }
  return { fields, file };
}

async function run(deps: FeedDeps, form: FeedForm, file: File | null): Promise<string> {
  const checked = await whenCheckedText(deps);
  switch (form.op) {
    case 'add': {
      const feed = await addCheckedFeed(deps, form);
      return `Feed added: ${feed.title ?? feed.url}. It will be checked ${checked}.`;
    }
    case 'remove':
      return `Feed removed: ${(await deleteFeed(deps, form.id)).url}. Its articles stay searchable.`;
    case 'refresh': {
      const feed = await changeFeed(deps, form.id, { action: 'refresh' });
      return feed.status === 'paused'
        ? `${feed.title ?? feed.url} is paused: resume it to have it checked.`
        : `${feed.title ?? feed.url} will be checked ${checked}.`;
    }
    case 'edit': {
      const feed = await changeFeed(deps, form.id, { title: form.title, intervalMinutes: form.intervalMinutes });
      return `Saved: ${feed.title ?? feed.url}, checked every ${feed.intervalMinutes} min.`;
    }
    case 'refresh-all': {
      const n = await refreshAllFeeds(deps);
      return n ? `${n === 1 ? '1 feed' : `${n} feeds`} will be checked ${checked}.` : 'No feed to check (paused feeds stay paused).';
    }
    case 'seed': {
      const r = await seedDefaultFeeds(deps);
      const n = r.added.length;
      const skipped = r.skipped.length ? ` Skipped: ${r.skipped.map((s) => `${s.url ?? '(no URL)'} (${s.reason})`).join('; ')}.` : '';
      return `${n === 1 ? '1 default feed' : `${n} default feeds`} added. They will be checked ${checked}.${skipped}`;
    }
    case 'import': {
      if (!file || file.size === 0) return 'Choose an OPML file to import.';
      const r = await importOpml(deps, Buffer.from(await file.arrayBuffer()));
      const skipped = r.skipped.length ? ` Skipped: ${r.skipped.map((s) => `${s.url ?? '(no URL)'} (${s.reason})`).join('; ')}.` : '';
      return `OPML imported: ${r.added.length} added, ${r.existing.length} already there, ${r.skipped.length} skipped.${r.added.length ? ` The new feeds will be checked ${checked}.` : ''}${skipped}`;
    }
    case 'pause':
    case 'resume': {
      const feed = await changeFeed(deps, form.id, { action: form.op });
      return `${feed.title ?? feed.url} ${DONE[form.op]}.`;
    }
  }
}

/** The dashboard's feed forms. The session and CSRF are checked first; then every outcome is a notice on the dashboard. */
export const POST = api(async (req) => {
  const { fields, file } = await readForm(req);
  await adminSession(req, fields.csrf ?? null);
  try {
    const form = feedForm.parse(fields);
    return seeOther(await withFlash('/admin', { kind: 'ok', text: await run(await services(), form, file) }));
  } catch (e) {
    if (!isZodError(e) && !(isQuinError(e) && e.status < 500)) throw e;
    const why = isZodError(e) ? readableZodError(e) : e.message;
    const adding = fields.op === 'add';
    const found = adding && isQuinError(e) && Array.isArray(e.details?.found) ? (e.details.found as string[]) : undefined;
    const what = adding ? 'Could not add the feed' : fields.op === 'import' ? 'Could not import the OPML file' : 'That did not work';
    // The feed it would duplicate, linked to its row on the page that shows the notice (same document: the row is
    // already there to scroll to, where a new load of /admin could scroll before the table had rendered).
    const existing = adding && isQuinError(e, 'CONFLICT') && typeof e.details?.id === 'number' ? e.details.id : null;
    const link = existing !== null ? { href: `#feed-${existing}`, text: 'Show it' } : undefined;
    return seeOther(
      await withFlash('/admin', {
        kind: 'error',
        text: `${what}: ${why.replace(/\.$/, '')}.`,
        url: adding ? fields.url : undefined,
        found,
        link,
      }),
    );
  }
});
