import { adminSession, api } from '../../../_lib/api';
import { exportOpml } from '../../../_lib/feed-admin';
import { services } from '../../../_lib/services';

export const dynamic = 'force-dynamic';

/** GET /admin/feeds/opml (admin): the feed list as OPML 2.0, folders as nested outlines, for any feed reader. */
export const GET = api(async (req) => {
  await adminSession(req);
  const xml = await exportOpml(await services());
  const day = new Date().toISOString().slice(0, 10);
  return new Response(xml, {
    headers: {
      'content-type': 'text/x-opml; charset=utf-8',
      'content-disposition': `attachment; filename="quin-feeds-${day}.opml"`,
      'cache-control': 'no-store',
    },
  });
});
