/**
 * Geometry of the small server-rendered bar charts (coverage per week, ingestion per day): pure
 * numbers in, rectangles and axis ticks out; the SVG itself is a React component in app/.
 */
export interface BarDatum {
  /** Label of the bucket (e.g. a week's Monday, YYYY-MM-DD). */
  key: string;
  value: number;
}

export interface Bar extends BarDatum {
  x: number;
  y: number;
  width: number;
  height: number;
}

export interface BarLayout {
  bars: Bar[];
  max: number;
  /** Y-axis ticks (value and its y). */
  ticks: { value: number; y: number }[];
  /** Indices of the bars whose labels are shown on the x axis (evenly spaced, first and last). */
  labelled: number[];
}

/** A "nice" axis maximum: 1, 2 or 5 times a power of ten, at least `max`. */
export function niceMax(max: number): number {
  if (max <= 0) return 1;
  const p = 10 ** Math.floor(Math.log10(max));
  for (const m of [1, 2, 5, 10]) if (m * p >= max) return m * p;
  return 10 * p;
}

export function layoutBars(data: BarDatum[], width: number, height: number, opts: { gap?: number; maxLabels?: number } = {}): BarLayout {
  const gap = opts.gap ?? 1;
  const max = niceMax(Math.max(0, ...data.map((d) => d.value)));
  const slot = data.length ? width / data.length : width;
  const bars = data.map((d, i) => {
    const h = (Math.max(0, d.value) / max) * height;
    return { ...d, x: i * slot + gap / 2, y: height - h, width: Math.max(1, slot - gap), height: h };
  });
  const ticks = [0, max / 2, max].map((value) => ({ value, y: height - (value / max) * height }));
  const maxLabels = Math.max(2, opts.maxLabels ?? 6);
  const step = Math.max(1, Math.ceil(data.length / maxLabels));
  // Evenly spaced labels and the last one; a regular label closer than a step to the last is dropped,
  // or the two would overlap at the right edge.
  const last = data.length - 1;
  const labelled = data.length
    ? [...data.map((_, i) => i).filter((i) => i % step === 0 && (i === last || last - i >= step)), ...(last % step === 0 ? [] : [last])]
    : [];
  return { bars, max, ticks, labelled };
}

/** Fills missing days (or weeks) with zeros between the first and last key, so that gaps show. */
export function fillDays(data: BarDatum[], stepDays: number): BarDatum[] {
  if (data.length === 0) return [];
  const byKey = new Map(data.map((d) => [d.key, d.value]));
  const sorted = [...byKey.keys()].sort();
  const out: BarDatum[] = [];
  const end = Date.parse(`${sorted[sorted.length - 1]}T00:00:00Z`);
  // A cap keeps one stray date (e.g. 1970) from producing an enormous chart.
  for (let t = Date.parse(`${sorted[0]}T00:00:00Z`), n = 0; t <= end && n < 2000; t += stepDays * 86400_000, n++) {
    const key = new Date(t).toISOString().slice(0, 10);
    out.push({ key, value: byKey.get(key) ?? 0 });
  }
  return out;
}

/** Consecutive month keys (YYYY-MM) or year keys (YYYY) between two keys, inclusive. */
function keyRange(first: string, last: string, unit: 'month' | 'year'): string[] {
  const out: string[] = [];
  let [y, m] = first.split('-').map(Number) as [number, number];
  const [ly, lm] = last.split('-').map(Number) as [number, number];
  for (let n = 0; n < 5000; n++) {
    out.push(unit === 'year' ? String(y) : `${y}-${String(m).padStart(2, '0')}`);
    if (unit === 'year' ? y >= ly : y > ly || (y === ly && m >= lm)) break;
    if (unit === 'year') y += 1;
    else [y, m] = m === 12 ? [y + 1, 1] : [y, m + 1];
  }
  return out;
}

/**
 * Matching coverage as bars: per week when that fits in `maxBars`, else per month, else per year
 * (a corpus can span decades), gaps filled with zeros.
 */
export function coverageSeries(
  weeks: { week: string; articles: number }[],
  maxBars = 120,
): { unit: 'week' | 'month' | 'year'; data: BarDatum[] } {
  const sorted = weeks.filter((w) => /^\d{4}-\d{2}-\d{2}$/.test(w.week)).sort((a, b) => a.week.localeCompare(b.week));
  if (sorted.length === 0) return { unit: 'week', data: [] };
  const weekly = fillDays(
    sorted.map((w) => ({ key: w.week, value: w.articles })),
    7,
  );
  if (weekly.length <= maxBars) return { unit: 'week', data: weekly };
  for (const unit of ['month', 'year'] as const) {
    const len = unit === 'month' ? 7 : 4;
    const sums = new Map<string, number>();
    for (const w of sorted) sums.set(w.week.slice(0, len), (sums.get(w.week.slice(0, len)) ?? 0) + w.articles);
    const keys = keyRange(sorted[0]!.week.slice(0, len), sorted[sorted.length - 1]!.week.slice(0, len), unit);
    if (keys.length <= maxBars || unit === 'year') return { unit, data: keys.map((key) => ({ key, value: sums.get(key) ?? 0 })) };
  }
  return { unit: 'week', data: weekly };
}
