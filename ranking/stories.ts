/**
 * Stories: the coverage matching a query grouped by event. Articles are in the same story when their
 * words are alike (TF-IDF cosine over title and passage, the title counting double) and their dates
 * are close (a gap of at most `windowDays` between the two groups' date ranges, so a story can run
 * for weeks while it keeps being reported). Average-linkage agglomerative clustering: the closest two
 * groups merge first, until no pair is alike enough; average linkage does not chain unrelated
 * articles together through a middle one the way single linkage would. Pure and deterministic.
 */
import { STOP_WORDS, wordTokens } from './query';

export interface StoryInput {
  articleId: number;
  title: string;
  url: string;
  source: string;
  publishedAt: Date | null;
  /** The matching passage. */
  text: string;
  /** Relevance of the article to the query (higher first). */
  score: number;
}

export interface StoryArticle {
  articleId: number;
  title: string;
  url: string;
  source: string;
  publishedAt: string | null;
  score: number;
}

export interface Story {
  /** Stable within a result set: the smallest article id of the story. */
  id: number;
  /** The title of the article most alike to the rest of the story. */
  headline: string;
  articles: StoryArticle[];
  /** The earliest dated report ("first reported by"), else the most relevant one. */
  first: StoryArticle;
  latest: StoryArticle;
  sources: { name: string; articles: number }[];
  /** Reports per day (per week when the story spans more than TIMELINE_DAILY_MAX_DAYS). */
  timeline: { date: string; articles: number }[];
  timelineUnit: 'day' | 'week';
  /** The best article's relevance. */
  score: number;
}

export interface StoryOptions {
  /** Average cosine similarity from which two groups are one story. */
  minSimilarity: number;
  /** Largest gap in days between two groups' date ranges for them to merge. */
  windowDays: number;
}

export const DEFAULT_STORY_OPTIONS: StoryOptions = { minSimilarity: 0.12, windowDays: 10 };
const TIMELINE_DAILY_MAX_DAYS = 62;
const DAY_MS = 86_400_000;

type Vec = Map<string, number>;

/** A light suffix strip, so that "closes", "closed" and "closing" count as one word. */
const stem = (t: string) => (t.length > 5 ? t.replace(/(?:ing|ed|es|s)$/, '') : t);

function terms(s: string): string[] {
  return wordTokens(s.toLowerCase())
    .filter((t) => t.length > 2 && !STOP_WORDS.has(t) && !/^\d+$/.test(t))
    .map(stem);
}

/** TF-IDF vectors (L2-normalised) over the set; title words count twice. */
export function tfidfVectors(items: readonly Pick<StoryInput, 'title' | 'text'>[]): Vec[] {
  const tfs = items.map((it) => {
    const tf: Vec = new Map();
    for (const t of terms(it.title)) tf.set(t, (tf.get(t) ?? 0) + 2);
    for (const t of terms(it.text)) tf.set(t, (tf.get(t) ?? 0) + 1);
    return tf;
  });
  const df = new Map<string, number>();
  for (const tf of tfs) for (const t of tf.keys()) df.set(t, (df.get(t) ?? 0) + 1);
  const n = items.length;
  return tfs.map((tf) => {
    const v: Vec = new Map();
    let norm = 0;
    for (const [t, f] of tf) {
      const w = (1 + Math.log(f)) * Math.log(1 + n / df.get(t)!);
      v.set(t, w);
      norm += w * w;
    }
    norm = Math.sqrt(norm) || 1;
    for (const [t, w] of v) v.set(t, w / norm);
    return v;
  });
}

export function cosine(a: Vec, b: Vec): number {
  const [small, large] = a.size <= b.size ? [a, b] : [b, a];
  let s = 0;
  for (const [t, w] of small) s += w * (large.get(t) ?? 0);
  return s;
}

interface Group {
  members: number[];
  /** Dated members' range (ms), null when none is dated. */
  from: number | null;
  to: number | null;
}

function gapDays(a: Group, b: Group): number {
  if (a.from === null || b.from === null) return 0; // an undated group is placed by its words alone
  if (a.to! < b.from) return (b.from - a.to!) / DAY_MS;
  if (b.to! < a.from) return (a.from - b.to!) / DAY_MS;
  return 0;
}

function merge(a: Group, b: Group): Group {
  const froms = [a.from, b.from].filter((x): x is number => x !== null);
  const tos = [a.to, b.to].filter((x): x is number => x !== null);
  return {
    members: [...a.members, ...b.members],
    from: froms.length ? Math.min(...froms) : null,
    to: tos.length ? Math.max(...tos) : null,
  };
}

/** Groups of item indexes, by average-linkage agglomeration under the similarity and time rules. */
export function clusterStories(items: readonly StoryInput[], opts: StoryOptions = DEFAULT_STORY_OPTIONS): number[][] {
  const vecs = tfidfVectors(items);
  const sim = items.map((_, i) => items.map((__, j) => (i === j ? 1 : cosine(vecs[i]!, vecs[j]!))));
  let groups: Group[] = items.map((it, i) => {
    const t = it.publishedAt ? it.publishedAt.getTime() : null;
    return { members: [i], from: t, to: t };
  });
  const linkage = (a: Group, b: Group) => {
    let s = 0;
    for (const i of a.members) for (const j of b.members) s += sim[i]![j]!;
    return s / (a.members.length * b.members.length);
  };
  for (;;) {
    let best: { i: number; j: number; s: number } | null = null;
    for (let i = 0; i < groups.length; i++) {
      for (let j = i + 1; j < groups.length; j++) {
        if (gapDays(groups[i]!, groups[j]!) > opts.windowDays) continue;
        const s = linkage(groups[i]!, groups[j]!);
        if (s >= opts.minSimilarity && (!best || s > best.s)) best = { i, j, s };
      }
    }
    if (!best) break;
    const merged = merge(groups[best.i]!, groups[best.j]!);
    groups = groups.filter((_, k) => k !== best!.i && k !== best!.j);
    groups.push(merged);
  }
  return groups.map((g) => [...g.members].sort((a, b) => a - b));
}

const toArticle = (it: StoryInput): StoryArticle => ({
  articleId: it.articleId,
  title: it.title,
  url: it.url,
  source: it.source,
  publishedAt: it.publishedAt ? it.publishedAt.toISOString() : null,
  score: it.score,
});

const dayKey = (t: number) => new Date(t).toISOString().slice(0, 10);
function weekKey(t: number): string {
  const d = new Date(t);
  const monday = Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate()) - ((d.getUTCDay() + 6) % 7) * DAY_MS;
  return dayKey(monday);
}

/** Reports per day (or week) from the first to the latest report, empty days included. */
export function storyTimeline(dates: readonly Date[]): { unit: 'day' | 'week'; points: { date: string; articles: number }[] } {
  const ts = dates.map((d) => d.getTime()).sort((a, b) => a - b);
  if (!ts.length) return { unit: 'day', points: [] };
  const unit = (ts.at(-1)! - ts[0]!) / DAY_MS > TIMELINE_DAILY_MAX_DAYS ? 'week' : 'day';
  const key = unit === 'day' ? dayKey : weekKey;
  const counts = new Map<string, number>();
  for (const t of ts) counts.set(key(t), (counts.get(key(t)) ?? 0) + 1);
  const points: { date: string; articles: number }[] = [];
  const step = unit === 'day' ? DAY_MS : 7 * DAY_MS;
  for (let t = Date.parse(key(ts[0]!)); t <= Date.parse(key(ts.at(-1)!)); t += step)
    points.push({ date: dayKey(t), articles: counts.get(dayKey(t)) ?? 0 });
  return { unit, points };
}

/** The matching articles (one passage each) grouped into stories, most relevant story first. */
export function groupStories(items: readonly StoryInput[], opts: StoryOptions = DEFAULT_STORY_OPTIONS): Story[] {
  const vecs = tfidfVectors(items);
  const stories = clusterStories(items, opts).map((members): Story => {
    const its = members.map((i) => items[i]!);
    const dated = its
      .filter((it) => it.publishedAt)
      .sort((a, b) => a.publishedAt!.getTime() - b.publishedAt!.getTime() || a.articleId - b.articleId);
    const byScore = [...its].sort((a, b) => b.score - a.score || a.articleId - b.articleId);
    const central = members
      .map((i) => ({ i, s: members.reduce((acc, j) => acc + cosine(vecs[i]!, vecs[j]!), 0) + items[i]!.score * 1e-6 }))
      .sort((a, b) => b.s - a.s || items[a.i]!.articleId - items[b.i]!.articleId)[0]!.i;
    const sources = new Map<string, number>();
    for (const it of its) sources.set(it.source, (sources.get(it.source) ?? 0) + 1);
    const timeline = storyTimeline(dated.map((d) => d.publishedAt!));
    const ordered = [...dated, ...byScore.filter((it) => !it.publishedAt)];
    return {
      id: Math.min(...its.map((it) => it.articleId)),
      headline: items[central]!.title,
      articles: ordered.map(toArticle),
      first: toArticle(dated[0] ?? byScore[0]!),
      latest: toArticle(dated.at(-1) ?? byScore[0]!),
      sources: [...sources]
        .map(([name, articles]) => ({ name, articles }))
        .sort((a, b) => b.articles - a.articles || a.name.localeCompare(b.name)),
      timeline: timeline.points,
      timelineUnit: timeline.unit,
      score: byScore[0]!.score,
    };
  });
  return stories.sort((a, b) => b.score - a.score || a.id - b.id);
}
