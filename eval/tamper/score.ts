/**
 * The tampered-article evaluation's numbers, pure: a REFUTED claim is a flag. Precision: flags on
 * changed sentences / all flags; recall: changed sentences flagged / changed sentences (a changed
 * sentence the check did not take as a claim counts as missed). For the unchanged check-worthy
 * sentences: the share flagged REFUTED (at most 1 in 10 is the goal) and the share SUPPORTED. Also how
 * many claims were compound and split, per kind of change the recall, and the latency per claim and
 * per article.
 */
import type { VerdictLabel } from '../../ranking/types';

export interface ClaimOutcome {
  doc: string;
  sentence: string;
  changed: boolean;
  kind: string | null;
  /** null: the check did not take the sentence as a claim. */
  predicted: VerdictLabel | null;
  parts: number;
  ms: number;
  reason?: string;
}

export interface TamperScore {
  articles: number;
  changed: number;
  unchanged: number;
  flags: number;
  precision: number | null;
  recall: number | null;
  unchangedRefuted: number | null;
  unchangedSupported: number | null;
  compound: { claims: number; split: number };
  recallByKind: Record<string, { n: number; recall: number | null }>;
  latency: { claimP50Ms: number; claimP95Ms: number; articleMeanSeconds: number };
}

const ratio = (a: number, b: number) => (b ? Math.round((a / b) * 1e4) / 1e4 : null);

function quantile(xs: readonly number[], q: number): number {
  if (!xs.length) return 0;
  const s = [...xs].sort((a, b) => a - b);
  return Math.round(s[Math.min(s.length - 1, Math.floor(q * s.length))]!);
}

export function scoreTampered(outcomes: readonly ClaimOutcome[], articleSeconds: readonly number[]): TamperScore {
  const changed = outcomes.filter((o) => o.changed);
  const unchanged = outcomes.filter((o) => !o.changed);
  const flagged = outcomes.filter((o) => o.predicted === 'REFUTED');
  const hits = changed.filter((o) => o.predicted === 'REFUTED').length;
  const kinds = [...new Set(changed.map((o) => o.kind ?? '?'))].sort();
  const checked = outcomes.filter((o) => o.predicted !== null);
  return {
    articles: articleSeconds.length,
    changed: changed.length,
    unchanged: unchanged.length,
    flags: flagged.length,
    precision: ratio(hits, flagged.length),
    recall: ratio(hits, changed.length),
    unchangedRefuted: ratio(unchanged.filter((o) => o.predicted === 'REFUTED').length, unchanged.length),
    unchangedSupported: ratio(unchanged.filter((o) => o.predicted === 'SUPPORTED').length, unchanged.length),
    compound: { claims: checked.length, split: checked.filter((o) => o.parts > 1).length },
    recallByKind: Object.fromEntries(
      kinds.map((k) => {
        const xs = changed.filter((o) => (o.kind ?? '?') === k);
        return [k, { n: xs.length, recall: ratio(xs.filter((o) => o.predicted === 'REFUTED').length, xs.length) }];
      }),
    ),
    latency: {
      claimP50Ms: quantile(
        checked.map((o) => o.ms),
        0.5,
      ),
      claimP95Ms: quantile(
        checked.map((o) => o.ms),
        0.95,
      ),
      articleMeanSeconds: articleSeconds.length
        ? Math.round((articleSeconds.reduce((a, b) => a + b, 0) / articleSeconds.length) * 100) / 100
        : 0,
    },
  };
}

const pct = (x: number | null) => (x === null ? '–' : `${(x * 100).toFixed(1)}%`);

export function formatTampered(s: TamperScore, header: string): string {
  return [
    header,
    `${s.articles} articles: ${s.changed} changed sentences, ${s.unchanged} unchanged check-worthy sentences; ${s.flags} flagged REFUTED`,
    `flags: precision ${pct(s.precision)}, recall ${pct(s.recall)} (goal ≥ 60%)`,
    `unchanged: flagged REFUTED ${pct(s.unchangedRefuted)} (goal ≤ 10%), SUPPORTED ${pct(s.unchangedSupported)}`,
    `recall by kind: ${Object.entries(s.recallByKind)
      .map(([k, v]) => `${k} ${pct(v.recall)} (${v.n})`)
      .join(', ')}`,
    `compound claims split: ${s.compound.split} of ${s.compound.claims} claims checked in parts`,
    `latency: per claim p50 ${s.latency.claimP50Ms} ms, p95 ${s.latency.claimP95Ms} ms; per article ${s.latency.articleMeanSeconds} s`,
  ].join('\n');
}
