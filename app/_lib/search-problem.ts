/**
 * Why a search could not run, for people: plain words that name the control on the search page to
 * change ("the “From” date under “Published between”"). The API keeps the machine details in
 * `error.issues`; this reads the same error's code and details.
 */
import type { QuinError } from '../../lib/errors';

export interface SearchProblem {
  title: string;
  message: string;
}

/** The search page's control for each parameter. */
const CONTROLS: Record<string, string> = {
  q: 'the search box',
  k: 'the number of results per page in the address',
  page: 'the page number (use the page links below the results)',
  halfLifeDays: '“Recency half-life” under Refine',
  asOf: 'the “As of” date under Refine',
  from: 'the “From” date under “Published between”',
  to: 'the “To” date under “Published between”',
  maxAgeDays: '“Maximum age” under Refine',
  sources: '“Sources” under Refine',
  sort: '“Sort by” under Refine',
};

const longDate = (iso: unknown) =>
  typeof iso === 'string'
    ? new Date(iso).toLocaleDateString('en-GB', { day: 'numeric', month: 'long', year: 'numeric', timeZone: 'UTC' })
    : 'that date';

function emptyRange(d: Record<string, unknown>): SearchProblem {
  const byAge = d.param === 'maxAgeDays';
  // The upper bound is "To", or "As of" when that day is earlier (nothing published after it is searched).
  const end = d.end === 'asOf' ? '“As of”' : '“To”';
  const what = byAge
    ? `“Maximum age” (the past ${String(d.maxAgeDays)} days) starts on ${longDate(d.from)}, after the ${end} date (${longDate(d.to)}).`
    : `The “From” date (${longDate(d.from)}) is after the ${end} date (${longDate(d.to)}).`;
  return {
    title: 'No date can match these filters',
    message: `${what} Change ${byAge ? '“Maximum age”' : 'the “From” date'} or the ${end} date under Refine, or remove one of them.`,
  };
}

export function searchProblem(e: Pick<QuinError, 'code' | 'message' | 'details'>): SearchProblem {
  const d = e.details ?? {};
  if (d.reason === 'empty_range') return emptyRange(d);
  if (e.code === 'QUERY_TOO_LONG') {
    return {
      title: 'Your query is too long',
      message: `It has ${Number(d.got).toLocaleString('en')} characters; the limit is ${Number(d.max).toLocaleString('en')}. Shorten it in the search box: one claim or question at a time works best.`,
    };
  }
  if (e.code === 'QUERY_EMPTY') return { title: 'Nothing to search for', message: 'Type a claim or a question in the search box.' };
  if (e.code === 'QUERY_UNUSABLE')
    return {
      title: 'Nothing to search for',
      message: 'Your query has no words to look for (only symbols). Type a claim or a question in the search box.',
    };
  const control = CONTROLS[String(d.param ?? '')];
  const what = e.message.charAt(0).toUpperCase() + e.message.slice(1);
  return { title: 'These search settings do not work', message: control ? `${what}. Change ${control}.` : `${what}.` };
}
