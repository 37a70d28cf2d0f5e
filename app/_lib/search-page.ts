/** Data of the search page: the search itself plus what the filters offer; expected failures become page states. */
import { ERROR_CODES, isQuinError } from '../../lib/errors';
import type { SearchResponse } from '../../ranking/types';
import type { SourceOption } from '../_components/filters';
import type { PageQuery } from './search-url';
import { checkSearchRate, runSearch } from './search';
import { searchProblem } from './search-problem';
import { services } from './services';
import { topSources } from './sources';

export type SearchPageState =
  | { kind: 'results'; response: SearchResponse }
  | { kind: 'problem'; title: string; message: string }
  | { kind: 'unavailable'; message: string };

export interface SearchPageData {
  state: SearchPageState;
  sources: SourceOption[];
  defaultHalfLife: number | null;
}

async function searchState(parsed: PageQuery, client: string): Promise<SearchPageState> {
  if (!parsed.ok) return { kind: 'problem', title: parsed.title, message: parsed.message };
  try {
    await checkSearchRate(client);
    return { kind: 'results', response: await runSearch({ ...parsed.query, coverage: true }) };
  } catch (e) {
    if (!isQuinError(e)) throw e;
    if (e.code === 'RATE_LIMITED') return { kind: 'problem', title: 'Too many searches', message: `${e.message}.` };
    if (e.code === 'OVERLOADED') return { kind: 'unavailable', message: `${e.message}.` };
    if (e.status < 500) return { kind: 'problem', ...searchProblem(e) };
    if (e.code === 'INDEX_UNAVAILABLE' || e.code === 'MODEL_UNAVAILABLE' || e.code === 'DB_UNAVAILABLE') {
      // What is wrong when it is known (an unreachable cluster is not "starting or indexing").
      const known = typeof e.details?.publicMessage === 'string' ? e.details.publicMessage : null;
      return {
        kind: 'unavailable',
        message: known
          ? `Search cannot run now: ${known}. Try again later; /api/health says when it is back.`
          : `${ERROR_CODES[e.code].summary}: the service is starting or indexing. Try again in a minute.`,
      };
    }
    throw e;
  }
}

export async function loadSearchPage(parsed: PageQuery, client: string): Promise<SearchPageData> {
  const { config, db } = await services();
  const [state, sources] = await Promise.all([searchState(parsed, client), topSources(db).catch(() => [])]);
  return { state, sources, defaultHalfLife: config.halfLifeDays };
}
