import Link from 'next/link';
import { SearchBar } from './_components/search-bar';
import { SearchForm } from './_components/search-form';
import { TimeAgo } from './_components/time-ago';
import { homeExamples } from './_lib/examples';
import { searchLimits } from './_lib/search';
import { corpusSummary } from './_lib/home';
import { searchHref } from './_lib/search-url';

export const dynamic = 'force-dynamic';

export default async function Home() {
  const summary = await corpusSummary();
  const examples = homeExamples();
  const limits = await searchLimits().catch(() => undefined);
  return (
    <>
      <section className="hero" aria-labelledby="hero-h">
        <h1 id="hero-h">Check a claim against the news</h1>
        <p>
          Quin searches recent coverage for the passages that confirm or contradict a statement, and answers questions with the best
          evidence.
        </p>
        <SearchForm>
          <SearchBar autoFocus maxLength={limits?.maxQueryChars} />
        </SearchForm>
      </section>
      <nav className="examples" aria-label="Example searches" data-testid="examples">
        {examples.map((e) => (
          <Link key={e.q} href={searchHref({ q: e.q })}>
            <small>{e.kind}</small>
            {e.q}
          </Link>
        ))}
      </nav>
      {summary ? (
        <p className="stats-strip" data-testid="corpus-summary">
          <span>
            <strong>{summary.articles.toLocaleString('en')}</strong> articles
          </span>
          <span>
            <strong>{summary.sources.toLocaleString('en')}</strong> sources
          </span>
          {summary.latest ? (
            <span>
              latest: <TimeAgo iso={summary.latest} />
            </span>
          ) : null}
        </p>
      ) : null}
    </>
  );
}
