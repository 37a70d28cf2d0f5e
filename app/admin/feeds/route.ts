import { ZodError } from 'zod';
import { isQuinError } from '../../../lib/errors';
import { readableZodError } from '../../../lib/web/http';
import { seeOther } from '../../_lib/admin-auth';
import { adminSession, api } from '../../_lib/api';
import { addCheckedFeed, changeFeed, deleteFeed } from '../../_lib/feed-admin';
import { formFields, withFlash } from '../../_lib/forms';
import { services } from '../../_lib/services';
import { feedForm } from './schema';

export const dynamic = 'force-dynamic';

const DONE = { pause: 'paused', resume: 'resumed', refresh: 'will be checked within a few seconds' } as const;

/** The dashboard's feed forms. The session and CSRF are checked first; then every outcome is a notice on the dashboard. */
export const POST = api(async (req) => {
  const fields = await formFields(req);
  await adminSession(req, fields.csrf ?? null);
  try {
    const form = feedForm.parse(fields);
    const deps = await services();
    let text: string;
    if (form.op === 'add') {
      const feed = await addCheckedFeed(deps, form);
      text = `Feed added: ${feed.title ?? feed.url}. It will be crawled within a few seconds.`;
    } else if (form.op === 'remove') {
      const removed = await deleteFeed(deps, form.id);
      text = `Feed removed: ${removed.url}. Its articles stay searchable.`;
    } else {
      const feed = await changeFeed(deps, form.id, { action: form.op });
      text = `${feed.title ?? feed.url} ${DONE[form.op]}.`;
    }
    return seeOther(await withFlash('/admin', { kind: 'ok', text }));
  } catch (e) {
    if (!(e instanceof ZodError) && !(isQuinError(e) && e.status < 500)) throw e;
    const why = e instanceof ZodError ? readableZodError(e) : e.message;
    return seeOther(await withFlash('/admin', { kind: 'error', text: `${fields.op === 'add' ? 'Could not add the feed' : 'That did not work'}: ${why}` }));
  }
});
