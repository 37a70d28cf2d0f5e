/** GET /admin/feeds/opml (admin): the feed list as an OPML 2.0 download. No parameters. */
import { z } from 'zod';

export const opmlExportQuery = z.object({});
