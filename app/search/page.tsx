import type { Metadata } from 'next';
import { headers } from 'next/headers';
import { clientKey } from '../../lib/web/rate-limit';
import { Filters } from '../_components/filters';
import { SearchBar } from '../_components/search-bar';
import { SearchForm, SearchStatus } from '../_components/search-form';
import { SearchResults } from '../_components/search-results';
import { FactChecksPanel } from '../_components/fact-checks-panel';
import { SearchTools } from '../_components/search-tools';
import { factChecksFor } from '../_lib/fact-checks';
import { followHref } from '../_lib/follow';
import { searchLimits } from '../_lib/search';
import '../_components/tools.css';
import { loadSearchPage } from '../_lib/search-page';
import { canonicalParams, parsePageParams, type RawParams } from '../_lib/search-url';

export const dynamic = 'force-dynamic';

type Props = { searchParams: Promise<RawParams> };

export async function generateMetadata({ searchParams }: Props): Promise<Metadata> {
  const parsed = parsePageParams(await searchParams, await searchLimits());
  const q = parsed.ok ? parsed.query.q : parsed.q;
  // Feed readers and browsers discover the follow feed from the page itself.
  const alternates = parsed.ok
    ? { types: { 'application/atom+xml': [{ url: followHref(parsed.query), title: `Follow “${q.slice(0, 80)}”` }] } }
    : undefined;
  return { title: q ? `“${q.slice(0, 80)}”` : 'Search', alternates };
}

export default async function SearchPage({ searchParams }: Props) {
  const raw = await searchParams;
  const limits = await searchLimits();
  const parsed = parsePageParams(raw, limits);
  const [data, factChecks] = await Promise.all([
    loadSearchPage(parsed, clientKey(await headers())),
    parsed.ok ? factChecksFor(parsed.query.q, parsed.query.asOf).catch(() => []) : Promise.resolve([]),
  ]);
  const query = parsed.ok ? parsed.query : { q: parsed.q };
  return (
    // Keyed by the URL state: the form's uncontrolled fields are re-created from the URL on every
    // navigation (back button included), so they never show stale choices.
    <SearchForm key={canonicalParams(raw).toString()}>
      <h1 className="visually-hidden">{query.q ? `Evidence for “${query.q.slice(0, 200)}”` : 'Search'}</h1>
      <SearchBar q={query.q} maxLength={limits.maxQueryChars} />
      <div className="search-layout">
        <Filters query={query} sources={data.sources} defaultHalfLife={data.defaultHalfLife} />
        <section aria-labelledby="results-h" id="results">
          <SearchStatus />
          {parsed.ok && data.state.kind === 'results' ? <SearchTools query={parsed.query} view="passages" /> : null}
          <FactChecksPanel checks={factChecks} />
          <SearchResults state={data.state} query={parsed.ok ? parsed.query : null} />
        </section>
      </div>
    </SearchForm>
  );
}
