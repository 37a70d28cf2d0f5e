/**
 * Coverage over time for a query (the journalists' chart): matching articles and snippets per ISO
 * week (weeks start on Monday, UTC), with empty weeks between the first and the last filled in. Pure.
 */
import type { WeekCount } from './types';

const DAY_MS = 86_400_000;
/** A chart wider than this (10 years) keeps only its most recent weeks. */
export const MAX_WEEKS = 520;

export function weekStart(d: Date): Date {
  const day = new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate()));
  const sinceMonday = (day.getUTCDay() + 6) % 7;
  return new Date(day.getTime() - sinceMonday * DAY_MS);
}

export function weeklyCoverage(items: readonly { articleId: number; publishedAt: Date | null }[]): WeekCount[] {
  const weeks = new Map<number, { articles: Set<number>; snippets: number }>();
  for (const it of items) {
    if (!it.publishedAt || !Number.isFinite(it.publishedAt.getTime())) continue;
    const w = weekStart(it.publishedAt).getTime();
    let e = weeks.get(w);
    if (!e) weeks.set(w, (e = { articles: new Set(), snippets: 0 }));
    e.articles.add(it.articleId);
    e.snippets++;
  }
  if (!weeks.size) return [];
  const keys = [...weeks.keys()];
  const last = Math.max(...keys);
  const first = Math.max(Math.min(...keys), last - (MAX_WEEKS - 1) * 7 * DAY_MS);
  const out: WeekCount[] = [];
  for (let w = first; w <= last; w += 7 * DAY_MS) {
    const e = weeks.get(w);
    out.push({ week: new Date(w).toISOString().slice(0, 10), articles: e?.articles.size ?? 0, snippets: e?.snippets ?? 0 });
  }
  return out;
}
