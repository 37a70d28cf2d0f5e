import type { Metadata, Viewport } from 'next';
import Link from 'next/link';
import { NavLinks } from './_components/nav-links';
import './globals.css';

export const metadata: Metadata = {
  title: { default: 'Quin news — check claims against recent news', template: '%s · Quin news' },
  description: 'Search recent news coverage for evidence on a claim or a question, with automatic verdicts and sources.',
};

export const viewport: Viewport = { width: 'device-width', initialScale: 1, themeColor: '#17181a' };

export default function RootLayout({ children }: { children: React.ReactNode }) {
  return (
    <html lang="en">
      <body>
        <a className="skip-link" href="#main">
          Skip to content
        </a>
        <header className="site-header">
          <div className="site-header__inner">
            <Link href="/" className="brand" aria-label="Quin news, home">
              <span className="brand__name">Quin</span>
              <span className="brand__tag">News claim checker</span>
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
