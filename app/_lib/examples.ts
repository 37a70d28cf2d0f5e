/**
 * The home page's example searches, checked against the archive: a claim or question is shown only
 * when the archive holds a passage that matches it well (most of its words in one passage), so an
 * example never leads to "nothing found". The check runs the real search (BM25 only, no models) at
 * most every few minutes per process, in the background; until it has run, the first examples of
 * the list are shown. When too few of the list match (an archive of other news), recent headlines
 * that read as claims fill the gap: the archive answers them by construction.
 */
import { bm25Terms, detectKind, search } from '../../ranking';
import { termCoverage } from '../../ranking/floor';
import { searchContext, searchContextState, services } from './services';

export interface Example {
  kind: 'Claim' | 'Question';
  q: string;
}

/** Candidates in order of preference, across the corpora the project ships and live news. */
export const EXAMPLE_POOL: Example[] = [
  { kind: 'Claim', q: 'The central bank raised interest rates' },
  { kind: 'Claim', q: 'Google made a profit in its first earnings report since floating' },
  { kind: 'Claim', q: 'Justin Gatlin won the Olympic 100m final' },
  { kind: 'Claim', q: 'Sony sold more PlayStation consoles than Microsoft sold Xbox consoles' },
  { kind: 'Claim', q: 'Trump imposed tariffs on steel imports' },
  { kind: 'Claim', q: 'Vitamin D supplements prevent respiratory infections' },
  { kind: 'Claim', q: 'OPEC agreed to cut oil production' },
  { kind: 'Question', q: 'What is happening to oil prices?' },
  { kind: 'Question', q: 'Who won the Olympic 100m final?' },
  { kind: 'Question', q: 'How did the housing market change?' },
];

const CLAIMS = 2;
const QUESTIONS = 1;
/** A good match holds at least this share of the example's words in one passage. */
const GOOD_MATCH = 0.75;
const REFRESH_MS = 10 * 60_000;

const state: { at: number; examples: Example[] | null; running: Promise<void> | null } = { at: 0, examples: null, running: null };

export function pickExamples(pool: readonly Example[], matches: (e: Example) => boolean): Example[] {
  const good = pool.filter(matches);
  return [...good.filter((e) => e.kind === 'Claim').slice(0, CLAIMS), ...good.filter((e) => e.kind === 'Question').slice(0, QUESTIONS)];
}

async function matchesArchive(e: Example): Promise<boolean> {
  const res = await search(
    { q: e.q, k: 1, mode: 'bm25', rerank: false, verdict: false, evidenceTop: 0, halfLifeDays: 'off' },
    await searchContext(),
  );
  const top = res.results[0];
  return top !== undefined && termCoverage(bm25Terms(e.q), top.title, top.text) >= GOOD_MATCH;
}

/** Recent headlines of a few words that read as claims, one per source. */
async function headlineClaims(): Promise<Example[]> {
  const { db } = await services();
  const recent = await db.article.findMany({
    where: { publishedAt: { not: null } },
    orderBy: { publishedAt: 'desc' },
    take: 50,
    select: { title: true, source: true },
  });
  const seen = new Set<string>();
  const out: Example[] = [];
  for (const a of recent) {
    const words = a.title.trim().split(/\s+/).length;
    if (seen.has(a.source) || words < 4 || words > 14 || detectKind(a.title) !== 'claim') continue;
    seen.add(a.source);
    out.push({ kind: 'Claim', q: a.title.trim() });
  }
  return out;
}

async function refresh(): Promise<void> {
  const ok = new Map<Example, boolean>();
  for (const e of EXAMPLE_POOL) ok.set(e, await matchesArchive(e).catch(() => false));
  let examples = pickExamples(EXAMPLE_POOL, (e) => ok.get(e) === true);
  const claims = examples.filter((e) => e.kind === 'Claim').length;
  if (claims < CLAIMS) {
    const extra: Example[] = [];
    for (const e of await headlineClaims().catch(() => [])) {
      if (extra.length >= CLAIMS - claims) break;
      if (await matchesArchive(e).catch(() => false)) extra.push(e);
    }
    examples = [...examples.filter((e) => e.kind === 'Claim'), ...extra, ...examples.filter((e) => e.kind === 'Question')];
  }
  state.examples = examples;
  state.at = Date.now();
}

/** The examples to show now (never waits for the check). */
export function homeExamples(): Example[] {
  if (searchContextState() === 'ready' && !state.running && Date.now() - state.at > REFRESH_MS) {
    state.running = refresh().finally(() => (state.running = null));
  }
  return state.examples ?? pickExamples(EXAMPLE_POOL, () => true);
}
