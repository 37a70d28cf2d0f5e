import type { Metadata, Viewport } from 'next';
import { headers } from 'next/headers';
import Link from 'next/link';
import { NavLinks } from './_components/nav-links';
import { SLASH_KEY_SCRIPT } from './_lib/slash-key';
import './globals.css';

export const metadata: Metadata = {
  title: { default: 'Quin news — check claims against recent news', template: '%s · Quin news' },
  description: 'Search recent news coverage for evidence on a claim or a question, with automatic verdicts and sources.',
};

export const viewport: Viewport = { width: 'device-width', initialScale: 1, themeColor: '#17181a' };

/** The per-request nonce of the Content-Security-Policy (proxy.ts), for the one inline script. */
async function cspNonce(): Promise<string | undefined> {
  return /'nonce-([^']+)'/.exec((await headers()).get('content-security-policy') ?? '')?.[1];
}

export default async function RootLayout({ children }: { children: React.ReactNode }) {
  const nonce = await cspNonce();
  return (
    <html lang="en">
      <body>
        {/* Before anything else: "/" works from the first moment, not only once React has hydrated. */}
        <script nonce={nonce} dangerouslySetInnerHTML={{ __html: SLASH_KEY_SCRIPT }} />
        <a className="skip-link" href="#main">
          Skip to content
        </a>
        <header className="site-header">
          <div className="site-header__inner">
            {/* Named by its visible text (WCAG 2.5.3, label in name): "Quin News claim checker". */}
            <Link href="/" className="brand">
              <span className="brand__name">Quin</span> <span className="brand__tag">News claim checker</span>
            </Link>
            <NavLinks />
          </div>
        </header>
        <main id="main" className="page" tabIndex={-1}>
          {children}
        </main>
        <footer className="site-footer">
          Quin news searches recent coverage for evidence. Results link to their sources; automatic verdicts can be wrong. ·{' '}
          <a href="/api/openapi.json">API</a> · <a href="/api/health">Status</a>
        </footer>
      </body>
    </html>
  );
}
