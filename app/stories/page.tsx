import type { Metadata } from 'next';
import { headers } from 'next/headers';
import { ERROR_CODES, isQuinError } from '../../lib/errors';
import { clientKey } from '../../lib/web/rate-limit';
import { Filters } from '../_components/filters';
import { SearchBar } from '../_components/search-bar';
import { SearchForm, SearchStatus } from '../_components/search-form';
import { SearchTools } from '../_components/search-tools';
import { StoriesView } from '../_components/stories-view';
import { followHref } from '../_lib/follow';
import { checkSearchRate, searchLimits } from '../_lib/search';
import { searchProblem } from '../_lib/search-problem';
import { canonicalParams, parsePageParams, type PageQuery, type RawParams } from '../_lib/search-url';
import { services } from '../_lib/services';
import { topSources } from '../_lib/sources';
import { loadStories, type StoriesResult } from '../_lib/stories';
import '../_components/tools.css';

export const dynamic = 'force-dynamic';

type Props = { searchParams: Promise<RawParams> };

export async function generateMetadata({ searchParams }: Props): Promise<Metadata> {
  const parsed = parsePageParams(await searchParams, await searchLimits());
  const q = parsed.ok ? parsed.query.q : parsed.q;
  const alternates = parsed.ok
    ? { types: { 'application/atom+xml': [{ url: followHref(parsed.query), title: `Follow “${q.slice(0, 80)}”` }] } }
    : undefined;
  return { title: q ? `Stories: “${q.slice(0, 80)}”` : 'Stories', alternates };
}

type State = { kind: 'stories'; data: StoriesResult } | { kind: 'problem'; title: string; message: string } | { kind: 'empty' };

async function load(parsed: PageQuery, client: string): Promise<State> {
  if (!parsed.ok) return parsed.q ? { kind: 'problem', title: parsed.title, message: parsed.message } : { kind: 'empty' };
  try {
    await checkSearchRate(client);
    return { kind: 'stories', data: await loadStories(parsed.query) };
  } catch (e) {
    if (!isQuinError(e)) throw e;
    if (e.code === 'RATE_LIMITED') return { kind: 'problem', title: 'Too many searches', message: `${e.message}.` };
    if (e.code === 'OVERLOADED') return { kind: 'problem', title: 'Busy', message: `${e.message}.` };
    if (e.status < 500) return { kind: 'problem', ...searchProblem(e) };
    if (e.code === 'INDEX_UNAVAILABLE' || e.code === 'MODEL_UNAVAILABLE' || e.code === 'DB_UNAVAILABLE')
      return { kind: 'problem', title: 'Not available yet', message: `${ERROR_CODES[e.code].summary}: try again in a minute.` };
    throw e;
  }
}

/** The same search as /search, its coverage grouped into stories (articles about the same event). */
export default async function StoriesPage({ searchParams }: Props) {
  const raw = await searchParams;
  const limits = await searchLimits();
  const parsed = parsePageParams(raw, limits);
  const [state, sources] = await Promise.all([
    load(parsed, clientKey(await headers())),
    services()
      .then(({ db }) => topSources(db))
      .catch(() => []),
  ]);
  const { config } = await services();
  const query = parsed.ok ? parsed.query : { q: parsed.q };
  return (
    <SearchForm key={canonicalParams(raw).toString()} action="/stories">
      <h1 className="visually-hidden">{query.q ? `Stories for “${query.q.slice(0, 200)}”` : 'Stories'}</h1>
      <SearchBar q={query.q} maxLength={limits.maxQueryChars} />
      <div className="search-layout">
        <Filters query={query} sources={sources} defaultHalfLife={config.halfLifeDays} />
        <section aria-labelledby="results-h" id="results">
          <SearchStatus />
          {parsed.ok ? <SearchTools query={parsed.query} view="stories" /> : null}
          {state.kind === 'stories' ? <StoriesView data={state.data} /> : null}
          {state.kind === 'problem' ? (
            <div className="notice notice--error" role="alert" data-testid="search-problem">
              <strong>{state.title}. </strong>
              {state.message}
            </div>
          ) : null}
          {state.kind === 'empty' ? (
            <h2 id="results-h" className="muted">
              Type a claim or a question to see its stories.
            </h2>
          ) : null}
        </section>
      </div>
    </SearchForm>
  );
}
