'use client';
import Link from 'next/link';
import { usePathname } from 'next/navigation';

const LINKS = [
  { href: '/', label: 'Search', match: (p: string) => p === '/' || p.startsWith('/search') },
  { href: '/check', label: 'Check an article', match: (p: string) => p.startsWith('/check') },
  { href: '/admin', label: 'Crawl health', match: (p: string) => p.startsWith('/admin') },
];

export function NavLinks() {
  const pathname = usePathname() ?? '/';
  return (
    <nav className="site-nav" aria-label="Main">
      {LINKS.map((l) => (
        <Link key={l.href} href={l.href} aria-current={l.match(pathname) ? 'page' : undefined}>
          {l.label}
        </Link>
      ))}
    </nav>
  );
}
