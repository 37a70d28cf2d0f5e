/**
 * The stories view's data: the search's most relevant articles (one passage each) grouped into stories
 * (ranking/stories.ts), and their coverage over time split by source.
 */
import { groupStories, type QueryKind, type Story, type StoryInput } from '../../ranking';
import type { StoriesQuery } from '../api/stories/schema';
import { runSearch } from './search';

export const STORY_ARTICLES = 100;
const TOP_SOURCES = 5;

export interface SourceCoverage {
  unit: 'week' | 'month';
  sources: string[];
  points: { date: string; counts: number[] }[];
}

export interface StoriesResult {
  query: string;
  kind: QueryKind;
  asOf: string;
  total: number;
  articles: number;
  stories: Story[];
  coverage: SourceCoverage;
}

const DAY_MS = 86_400_000;
const weekOf = (d: Date) => new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate()) - ((d.getUTCDay() + 6) % 7) * DAY_MS);
const monthOf = (d: Date) => new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), 1));

/** Articles per week (per month beyond two years) and per source (the top ones, then Other), empty periods included. Pure. */
export function coverageBySource(items: readonly Pick<StoryInput, 'source' | 'publishedAt'>[]): SourceCoverage {
  const dated = items.filter((i) => i.publishedAt);
  const counts = new Map<string, number>();
  for (const i of dated) counts.set(i.source, (counts.get(i.source) ?? 0) + 1);
  const sources = [...counts]
    .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))
    .slice(0, TOP_SOURCES)
    .map(([s]) => s);
  if (!dated.length) return { unit: 'week', sources, points: [] };
  const times = dated.map((i) => i.publishedAt!.getTime());
  const unit = Math.max(...times) - Math.min(...times) > 730 * DAY_MS ? 'month' : 'week';
  const bucket = unit === 'week' ? weekOf : monthOf;
  const byDate = new Map<number, number[]>();
  for (const i of dated) {
    const k = bucket(i.publishedAt!).getTime();
    const row = byDate.get(k) ?? byDate.set(k, new Array(sources.length + 1).fill(0)).get(k)!;
    const s = sources.indexOf(i.source);
    row[s < 0 ? sources.length : s]!++;
  }
  const first = Math.min(...byDate.keys());
  const last = Math.max(...byDate.keys());
  const points: SourceCoverage['points'] = [];
  for (let t = first; t <= last;) {
    points.push({ date: new Date(t).toISOString().slice(0, 10), counts: byDate.get(t) ?? new Array(sources.length + 1).fill(0) });
    const d = new Date(t);
    t = unit === 'week' ? t + 7 * DAY_MS : Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 1);
  }
  return { unit, sources, points };
}

export async function loadStories(q: StoriesQuery): Promise<StoriesResult> {
  const r = await runSearch({ ...q, k: STORY_ARTICLES, page: 1, sort: 'relevance', verdict: false });
  // A story ranks as its best article ranks in the search: by position, not by raw score, which
  // ignores the reranker's tiers (an unreranked 2018 item's decayed score beat the reranked best match).
  const items: StoryInput[] = r.results.map((res, i) => ({
    articleId: res.articleId,
    title: res.title,
    url: res.url,
    source: res.source,
    publishedAt: res.publishedAt ? new Date(res.publishedAt) : null,
    text: res.text,
    score: r.results.length - i,
  }));
  return {
    query: r.query,
    kind: r.kind,
    asOf: r.asOf,
    total: r.total,
    articles: items.length,
    stories: groupStories(items),
    coverage: coverageBySource(items),
  };
}
