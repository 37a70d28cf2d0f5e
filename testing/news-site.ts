/**
 * A local news site for crawler tests: real feed files from ../shared/data/feeds, served with their
 * absolute links rewritten to this server (so no test ever reaches the internet), and an article
 * page for every such link, written here. Pages are deterministic: the same path gives the same text.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import type { ServerResponse } from 'node:http';
import { serveBody, startTestServer, type Handler, type TestServer } from './http-server';

export interface PageOptions {
  title: string;
  paragraphs: string[];
  published?: string;
  canonical?: string;
  lang?: string;
}

const escapeHtml = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/** A news article page with the clutter real pages have around the text (navigation, aside, footer). */
export function articleHtml(p: PageOptions): string {
  const meta = [
    p.published ? `<meta property="article:published_time" content="${escapeHtml(p.published)}">` : '',
    p.canonical ? `<link rel="canonical" href="${escapeHtml(p.canonical)}">` : '',
  ].join('\n  ');
  return `<!DOCTYPE html>
<html lang="${p.lang ?? 'en'}">
<head>
  <meta charset="utf-8">
  <title>${escapeHtml(p.title)} | Local News</title>
  ${meta}
  <script>document.title = 'scripts must not run';</script>
</head>
<body>
  <header><nav><a href="/">Home</a> <a href="/world">World</a> <a href="/business">Business</a></nav></header>
  <aside><h3>Trending</h3><ul><li><a href="/t1">Unrelated story one</a></li><li><a href="/t2">Unrelated story two</a></li></ul></aside>
  <article>
    <h1>${escapeHtml(p.title)}</h1>
    ${p.paragraphs.map((t) => `<p>${escapeHtml(t)}</p>`).join('\n    ')}
  </article>
  <footer><p>Copyright Local News. All rights reserved.</p></footer>
</body>
</html>`;
}

const SUBJECTS = [
  'The council',
  'The minister',
  'A spokesperson',
  'The company',
  'Researchers',
  'Local residents',
  'The committee',
  'Officials',
];
const VERBS = ['said on Tuesday that', 'announced that', 'confirmed that', 'warned that', 'argued that', 'reported that'];
const CLAUSES = [
  'the plan would be reviewed before the end of the year',
  'costs had risen by more than ten percent since the spring',
  'the decision followed months of negotiations with several partners',
  'more information would be published in the coming weeks',
  'the number of complaints had fallen sharply after the changes',
  'a second phase of the project could start next summer',
];

/** Five paragraphs of three sentences, chosen from the path's hash, mentioning the path's own words. */
export function paragraphsFor(path: string): string[] {
  const h = crypto.createHash('sha256').update(path).digest();
  const words =
    decodeURIComponent(path)
      .split(/[^A-Za-z]+/)
      .filter((w) => w.length > 3)
      .slice(-4)
      .join(' ') || 'the story';
  return Array.from({ length: 5 }, (_, p) =>
    Array.from({ length: 3 }, (_, s) => {
      const b = h[(p * 3 + s) % h.length]!;
      return `${SUBJECTS[b % SUBJECTS.length]} ${VERBS[(b >> 3) % VERBS.length]} ${CLAUSES[(b >> 5) % CLAUSES.length]} in the matter of ${words}.`;
    }).join(' '),
  );
}

export function sendHtml(res: ServerResponse, html: string, status = 200): void {
  res.writeHead(status, { 'Content-Type': 'text/html; charset=utf-8' }).end(html);
}

/** Rewrites every absolute http(s) URL in a feed to `<origin>/ext/<host>/<path>`, keeping the bytes' encoding. */
export function rewriteFeedLinks(bytes: Buffer, origin: string): Buffer {
  const text = bytes
    .toString('latin1')
    .replace(/https?:\/\/([A-Za-z0-9.-]+)(?::\d+)?(?=[/"'<\s?#]|$)/g, (_m, host: string) => `${origin}/ext/${host}`);
  return Buffer.from(text, 'latin1');
}

export interface NewsSite extends TestServer {
  /** Serves a real feed file (links rewritten) at `path`. */
  serveRealFeed(path: string, file: string, opts?: Parameters<typeof serveBody>[1]): void;
  /** Requests for article pages so far. */
  pageRequests(): number;
}

/** `pageDelayMs` slows every article page (for kill tests). */
export async function startNewsSite(opts: { pageDelayMs?: number; routes?: Record<string, Handler> } = {}): Promise<NewsSite> {
  const server = await startTestServer(opts.routes);
  const page: Handler = async (req, res) => {
    if (opts.pageDelayMs) await new Promise((r) => setTimeout(r, opts.pageDelayMs));
    const path = (req.url ?? '/').split('?')[0]!;
    const title = decodeURIComponent(path.split('/').filter(Boolean).pop() ?? 'Story')
      .replace(/[-_]+/g, ' ')
      .replace(/\.\w+$/, '');
    sendHtml(res, articleHtml({ title: title || 'Story', paragraphs: paragraphsFor(path) }));
  };
  server.route('*', (req, res) => {
    if ((req.url ?? '').startsWith('/ext/')) return page(req, res);
    res.writeHead(404, { 'Content-Type': 'text/plain' }).end('not found');
  });
  return Object.assign(server, {
    serveRealFeed(path: string, file: string, o: Parameters<typeof serveBody>[1] = {}) {
      const body = rewriteFeedLinks(fs.readFileSync(file), server.origin);
      server.route(
        path,
        serveBody(() => body, { type: 'application/rss+xml', ...o }),
      );
    },
    pageRequests: () => server.requests.filter((r) => r.path.startsWith('/ext/')).length,
  });
}
