/**
 * The search page's state lives in its URL (shareable, the back button works). These pure functions
 * turn a URL (or the filter form) into validated search parameters and back into a canonical URL that
 * leaves out empty fields and defaults. Used by the page (server) and the form (client).
 */
import '../../lib/web/zod-browser';
import { requestError } from '../../ranking/request';
import { PUBLIC_LIMITS, type SearchLimits } from '../../ranking/schema';
import { searchQueryFor, type SearchQuery } from '../api/search/schema';
import { searchProblem, type SearchProblem } from './search-problem';

export type RawParams = Record<string, string | string[] | undefined>;

/** Parameters the page understands (the API's, minus its JSON-only switches). */
const KEYS = ['q', 'k', 'page', 'halfLifeDays', 'asOf', 'from', 'to', 'maxAgeDays', 'sources', 'sort'] as const;
const DEFAULTS: Partial<Record<(typeof KEYS)[number], string>> = { k: '10', page: '1', sort: 'relevance' };

const list = (v: string | string[] | undefined): string[] => (v === undefined ? [] : Array.isArray(v) ? v : [v]);

/**
 * Cleans raw parameters: empty values dropped; the form's `halfLifeDays=custom` + `halfLifeCustom=N`
 * folded into `halfLifeDays=N`; sources de-duplicated; defaults left out.
 */
export function canonicalParams(raw: RawParams): URLSearchParams {
  const out = new URLSearchParams();
  const hl = list(raw.halfLifeDays)[0];
  const halfLife = hl === 'custom' ? list(raw.halfLifeCustom)[0]?.trim() : hl;
  for (const key of KEYS) {
    if (key === 'sources') {
      const seen = new Set<string>();
      for (const s of list(raw.sources).flatMap((v) => v.split(','))) {
        const t = s.trim();
        if (!t || seen.has(t)) continue;
        out.append('sources', t);
        seen.add(t);
      }
      continue;
    }
    const value = (key === 'halfLifeDays' ? halfLife : list(raw[key])[0])?.trim();
    if (value === undefined || value === '' || DEFAULTS[key] === value) continue;
    out.set(key, value);
  }
  return out;
}

export function paramsToRaw(params: URLSearchParams): RawParams {
  const raw: RawParams = {};
  for (const key of new Set(params.keys())) {
    const all = params.getAll(key);
    raw[key] = all.length > 1 ? all : all[0];
  }
  return raw;
}

export type PageQuery = { ok: true; query: SearchQuery } | ({ ok: false; q: string } & SearchProblem);

/** Validates the page's parameters with the search contract's schema (the API's, at the server's limits). */
export function parsePageParams(raw: RawParams, limits: SearchLimits = PUBLIC_LIMITS): PageQuery {
  const params = canonicalParams(raw);
  const obj: Record<string, unknown> = Object.fromEntries([...params.entries()].filter(([k]) => k !== 'sources'));
  const sources = params.getAll('sources');
  if (sources.length) obj.sources = sources;
  const parsed = searchQueryFor(limits).safeParse(obj);
  if (parsed.success) return { ok: true, query: parsed.data };
  return { ok: false, q: params.get('q') ?? '', ...searchProblem(requestError(parsed.error, limits, obj)) };
}

/** A canonical /search URL for a query, with some parameters changed (undefined removes one). */
export function searchHref(
  query: Partial<SearchQuery>,
  change: Partial<Record<keyof SearchQuery, string | number | string[] | undefined>> = {},
): string {
  const raw: RawParams = {};
  for (const key of KEYS) {
    const v = key in change ? change[key] : query[key];
    if (v === undefined || v === null) continue;
    raw[key] = Array.isArray(v) ? v.map(String) : String(v);
  }
  const qs = canonicalParams(raw).toString();
  return qs ? `/search?${qs}` : '/search';
}
