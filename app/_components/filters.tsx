/** The journalists' tools beside the results: recency, dates, age, sources, sort. Part of the search form. */
import Link from 'next/link';
import type { SearchQuery } from '../api/search/schema';
import { searchHref } from '../_lib/search-url';
import { AsOfField } from './as-of-field';
import { FiltersDisclosure } from './search-form';

export interface SourceOption {
  name: string;
  articles: number;
}

const HALF_LIVES = [
  { value: 'off', label: 'Off (relevance only)' },
  { value: '365', label: '1 year' },
  { value: '30', label: '1 month' },
  { value: '7', label: '1 week' },
];

const MAX_AGES = [
  { value: '', label: 'Any time' },
  { value: '1', label: 'Past 24 hours' },
  { value: '7', label: 'Past week' },
  { value: '30', label: 'Past month' },
  { value: '365', label: 'Past year' },
];

function halfLifeChoice(requested: SearchQuery['halfLifeDays'], serverDefault: number | null): { choice: string; custom: string } {
  const value = requested ?? (serverDefault === null ? 'off' : serverDefault);
  const s = String(value);
  return HALF_LIVES.some((h) => h.value === s) ? { choice: s, custom: '' } : { choice: 'custom', custom: s };
}

export function Filters({
  query,
  sources,
  defaultHalfLife,
}: {
  query: Partial<SearchQuery>;
  sources: SourceOption[];
  defaultHalfLife: number | null;
}) {
  const hl = halfLifeChoice(query.halfLifeDays, defaultHalfLife);
  const maxAge = query.maxAgeDays === undefined ? '' : String(query.maxAgeDays);
  const ageOptions = MAX_AGES.some((m) => m.value === maxAge) ? MAX_AGES : [...MAX_AGES, { value: maxAge, label: `Past ${maxAge} days` }];
  const selected = new Set(query.sources ?? []);
  const shown = [...sources.filter((s) => selected.has(s.name)), ...sources.filter((s) => !selected.has(s.name))];
  for (const name of selected) if (!shown.some((s) => s.name === name)) shown.unshift({ name, articles: 0 });
  const filtered =
    query.asOf !== undefined ||
    query.halfLifeDays !== undefined ||
    query.from ||
    query.to ||
    query.maxAgeDays !== undefined ||
    selected.size > 0 ||
    query.sort === 'newest';

  return (
    <aside className="filters card" aria-labelledby="filters-h">
      <FiltersDisclosure summary="Filters and recency">
        <h2 id="filters-h">Refine</h2>
        <div data-autosubmit>
          <fieldset className="field">
            <legend>Recency half-life</legend>
            {HALF_LIVES.map((h) => (
              <label className="choice" key={h.value}>
                <input type="radio" name="halfLifeDays" value={h.value} defaultChecked={hl.choice === h.value} />
                {h.label}
                {defaultHalfLife !== null && String(defaultHalfLife) === h.value ? <span className="muted small">(default)</span> : null}
              </label>
            ))}
            <label className="choice">
              <input type="radio" name="halfLifeDays" value="custom" defaultChecked={hl.choice === 'custom'} />
              Custom
            </label>
            <span className="custom-days">
              <input
                type="number"
                name="halfLifeCustom"
                min="0.01"
                step="any"
                defaultValue={hl.custom}
                aria-label="Custom half-life in days"
              />
              <span className="small muted">days</span>
            </span>
            <span className="small muted">Older coverage counts half as much after each half-life.</span>
          </fieldset>

          <fieldset className="field">
            <legend>Sort by</legend>
            <label className="choice">
              <input type="radio" name="sort" value="relevance" defaultChecked={query.sort !== 'newest'} />
              Relevance (time-aware)
            </label>
            <label className="choice">
              <input type="radio" name="sort" value="newest" defaultChecked={query.sort === 'newest'} />
              Newest first
            </label>
          </fieldset>

          <div className="field">
            <label htmlFor="maxAgeDays">Maximum age</label>
            <select id="maxAgeDays" name="maxAgeDays" defaultValue={maxAge}>
              {ageOptions.map((m) => (
                <option key={m.value} value={m.value}>
                  {m.label}
                </option>
              ))}
            </select>
          </div>

          <fieldset className="field">
            <legend>Published between</legend>
            <div className="dates">
              <input type="date" name="from" defaultValue={query.from?.slice(0, 10)} aria-label="From date" />
              <input type="date" name="to" defaultValue={query.to?.slice(0, 10)} aria-label="To date" />
            </div>
          </fieldset>

          <AsOfField value={query.asOf} max={new Date().toISOString().slice(0, 10)} />

          {shown.length > 0 ? (
            <fieldset className="field">
              <legend>Sources</legend>
              <div className="sources-list">
                {shown.map((s) => (
                  <label className="choice" key={s.name}>
                    <input type="checkbox" name="sources" value={s.name} defaultChecked={selected.has(s.name)} />
                    <span>{s.name}</span>
                    {s.articles ? <span className="count">{s.articles.toLocaleString('en')}</span> : null}
                  </label>
                ))}
              </div>
            </fieldset>
          ) : null}
        </div>
        {query.k && query.k !== 10 ? <input type="hidden" name="k" value={query.k} /> : null}
        <div className="row">
          <button type="submit" className="button button--quiet button--small">
            Apply
          </button>
          {filtered && query.q ? (
            <Link className="button button--quiet button--small" href={searchHref({ q: query.q })}>
              Reset
            </Link>
          ) : null}
        </div>
      </FiltersDisclosure>
    </aside>
  );
}
