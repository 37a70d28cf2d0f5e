/**
 * Scores the news evaluation from per-claim outcomes (pure): the verdict metrics of
 * eval/verdict-metrics.ts with MIXED shown but scored as NOT_ENOUGH_EVIDENCE, retrieval of the
 * deciding article (hit@10), where the deciding sentence was shown (supports / refutes / neutral /
 * not shown), accuracy per corpus and per kind, verdicts given to keyword queries, and the verdict
 * goals for news claims. Also the report as text.
 */
import type { QueryKind, Stance, Verdict, VerdictLabel } from '../../ranking/types';
import { round4 } from '../metrics';
import { formatRiskCoverage, verdictMetrics, type VerdictMetrics } from '../verdict-metrics';
import { NEWS_LABELS, type NewsLabel } from './claims';

export interface ClaimOutcome {
  id: string;
  claim: string;
  /** null for keyword queries. */
  gold: NewsLabel | null;
  kind: string;
  corpus: string;
  /** The deciding (or, for NEI, closest) article's external id; null for keyword queries. */
  doc: string | null;
  /** What the pipeline made of the text, and whether it judged it. */
  queryKind: QueryKind | null;
  verdictStatus: string;
  /** The verdict; NOT_ENOUGH_EVIDENCE when none was given. */
  predicted: VerdictLabel;
  confidence: number;
  /** External ids of the top-10 results, best first. */
  top10: string[];
  /** Where the deciding sentence appeared among the verdict's evidence. */
  deciding: Stance | 'not shown' | null;
  /** How many sentences the verdict showed as supporting and as contradicting the claim. */
  shown?: { supports: number; refutes: number };
  error?: string;
}

export const COMMITTED = ['SUPPORTED', 'REFUTED', 'MIXED'] as const;
const MIXED_AS_NEI = { MIXED: 'NOT_ENOUGH_EVIDENCE' };

/**
 * The verdict goals for news claims (issue 33): few true claims marked REFUTED, false claims caught and
 * rarely called SUPPORTED, precise committed verdicts whose confidence orders correctness, a macro-F1
 * floor, and nothing shown for or against a claim the corpus does not cover.
 */
export const NEWS_GOALS = {
  maxTrueRefutedRate: 0.05,
  minFalseRefutedRate: 0.4,
  maxFalseSupportedRate: 0.1,
  minCommittedPrecision: 0.85,
  minTop20Precision: 0.9,
  minMacroF1: 0.55,
} as const;

export interface NewsScore {
  claims: number;
  verdict: VerdictMetrics;
  retrieval: { 'hit@10': number | null; hits: number; of: number; 'hit@10_nei_closest': number | null };
  deciding_sentence: Record<NewsLabel, Record<string, number>>;
  by_corpus: Record<string, { n: number; accuracy: number | null }>;
  by_kind: Record<string, { n: number; accuracy: number | null }>;
  keywords: { n: number; with_verdict: number; items: { id: string; query: string; verdict: VerdictLabel | null; status: string }[] };
  /** False claims: share called REFUTED, share called SUPPORTED. */
  false_claims: { n: number; refuted: number; supported: number; refuted_rate: number | null; supported_rate: number | null };
  /** The most confident fifth of the committed verdicts: how often right. */
  top20: { n: number; precision: number | null };
  /** Claims the corpus does not cover (kind "offtopic"): verdicts given, and those with a sentence shown for or against. */
  offtopic: { n: number; with_verdict: number; with_stance_shown: number };
  failed: { id: string; error: string }[];
  goals: { name: string; value: number | null; target: string; ok: boolean }[];
}

const correct = (o: ClaimOutcome) => (o.predicted === 'MIXED' ? 'NOT_ENOUGH_EVIDENCE' : o.predicted) === o.gold;

function accuracyBy(
  items: readonly ClaimOutcome[],
  key: (o: ClaimOutcome) => string,
): Record<string, { n: number; accuracy: number | null }> {
  const groups = new Map<string, ClaimOutcome[]>();
  for (const o of items) groups.set(key(o), [...(groups.get(key(o)) ?? []), o]);
  return Object.fromEntries(
    [...groups.entries()]
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
      .map(([k, g]) => [k, { n: g.length, accuracy: round4(g.filter(correct).length / g.length) }]),
  );
}

export function scoreNews(outcomes: readonly ClaimOutcome[]): NewsScore {
  const labelled = outcomes.filter((o): o is ClaimOutcome & { gold: NewsLabel } => o.gold !== null);
  const verdict = verdictMetrics(
    labelled.map((o) => ({ gold: o.gold, predicted: o.predicted, confidence: o.confidence })),
    { labels: NEWS_LABELS, committed: COMMITTED, scoreAs: MIXED_AS_NEI, shown: ['MIXED'], flip: { from: 'SUPPORTED', to: 'REFUTED' } },
  );
  const decidingArticle = labelled.filter((o) => o.gold !== 'NOT_ENOUGH_EVIDENCE' && o.doc);
  const hits = decidingArticle.filter((o) => o.top10.includes(o.doc!)).length;
  const nei = labelled.filter((o) => o.gold === 'NOT_ENOUGH_EVIDENCE' && o.doc);
  const empty = (): Record<string, number> => ({ supports: 0, refutes: 0, neutral: 0, 'not shown': 0 });
  const deciding: Record<NewsLabel, Record<string, number>> = { SUPPORTED: empty(), REFUTED: empty(), NOT_ENOUGH_EVIDENCE: empty() };
  for (const o of labelled) if (o.deciding) deciding[o.gold][o.deciding]!++;
  const keywords = outcomes.filter((o) => o.gold === null);
  const kwItems = keywords.map((o) => ({
    id: o.id,
    query: o.claim,
    verdict: o.verdictStatus === 'ok' ? o.predicted : null,
    status: o.verdictStatus,
  }));
  const rate = verdict.flipped?.rate ?? null;
  const falses = labelled.filter((o) => o.gold === 'REFUTED');
  const false_claims = {
    n: falses.length,
    refuted: falses.filter((o) => o.predicted === 'REFUTED').length,
    supported: falses.filter((o) => o.predicted === 'SUPPORTED').length,
    refuted_rate: falses.length ? round4(falses.filter((o) => o.predicted === 'REFUTED').length / falses.length) : null,
    supported_rate: falses.length ? round4(falses.filter((o) => o.predicted === 'SUPPORTED').length / falses.length) : null,
  };
  const committed = labelled
    .filter((o) => (COMMITTED as readonly string[]).includes(o.predicted))
    .sort((a, b) => b.confidence - a.confidence);
  const top = committed.slice(0, Math.round(committed.length * 0.2));
  const top20 = { n: top.length, precision: top.length ? round4(top.filter(correct).length / top.length) : null };
  const off = labelled.filter((o) => o.kind === 'offtopic');
  const offtopic = {
    n: off.length,
    with_verdict: off.filter((o) => o.predicted !== 'NOT_ENOUGH_EVIDENCE').length,
    with_stance_shown: off.filter((o) => (o.shown?.supports ?? 0) + (o.shown?.refutes ?? 0) > 0).length,
  };
  const goals = [
    {
      name: 'true claims marked REFUTED (rate)',
      value: rate,
      target: `≤ ${NEWS_GOALS.maxTrueRefutedRate}`,
      ok: rate !== null && rate <= NEWS_GOALS.maxTrueRefutedRate,
    },
    {
      name: 'precision of committed verdicts',
      value: verdict.committed.precision,
      target: `≥ ${NEWS_GOALS.minCommittedPrecision}`,
      ok: (verdict.committed.precision ?? 0) >= NEWS_GOALS.minCommittedPrecision,
    },
    {
      name: 'macro-F1',
      value: verdict.macro_f1,
      target: `≥ ${NEWS_GOALS.minMacroF1}`,
      ok: (verdict.macro_f1 ?? 0) >= NEWS_GOALS.minMacroF1,
    },
    {
      name: 'false claims called REFUTED (rate)',
      value: false_claims.refuted_rate,
      target: `≥ ${NEWS_GOALS.minFalseRefutedRate}`,
      ok: (false_claims.refuted_rate ?? 0) >= NEWS_GOALS.minFalseRefutedRate,
    },
    {
      name: 'false claims called SUPPORTED (rate)',
      value: false_claims.supported_rate,
      target: `≤ ${NEWS_GOALS.maxFalseSupportedRate}`,
      ok: false_claims.supported_rate !== null && false_claims.supported_rate <= NEWS_GOALS.maxFalseSupportedRate,
    },
    {
      name: 'the most confident 20% of committed verdicts right',
      value: top20.precision,
      target: `≥ ${NEWS_GOALS.minTop20Precision}`,
      ok: (top20.precision ?? 0) >= NEWS_GOALS.minTop20Precision,
    },
    ...(off.length
      ? [
          {
            name: 'off-topic claims with a sentence shown for or against (count)',
            value: offtopic.with_stance_shown,
            target: '= 0',
            ok: offtopic.with_stance_shown === 0,
          },
        ]
      : []),
  ];
  return {
    claims: labelled.length,
    verdict,
    retrieval: {
      'hit@10': decidingArticle.length ? round4(hits / decidingArticle.length) : null,
      hits,
      of: decidingArticle.length,
      'hit@10_nei_closest': nei.length ? round4(nei.filter((o) => o.top10.includes(o.doc!)).length / nei.length) : null,
    },
    deciding_sentence: deciding,
    by_corpus: accuracyBy(labelled, (o) => o.corpus),
    by_kind: accuracyBy(labelled, (o) => o.kind),
    keywords: {
      n: keywords.length,
      with_verdict: kwItems.filter((k) => k.verdict !== null && k.verdict !== 'NOT_ENOUGH_EVIDENCE').length,
      items: kwItems,
    },
    failed: outcomes.filter((o) => o.error).map((o) => ({ id: o.id, error: o.error! })),
    false_claims,
    top20,
    offtopic,
    goals,
  };
}

const letters = (s: string) => s.toLowerCase().replace(/[^\p{L}\p{N}]+/gu, '');

/**
 * Where a sentence appears among a verdict's evidence: the stance group holding it, else "not shown".
 * Texts are compared by their letters and digits only, and one may contain the other (the snippet
 * splitter may cut a quotation differently from the claim file); pieces under 20 characters never match.
 */
export function locateSentence(sentence: string, evidence: Verdict['evidence'] | null | undefined): Stance | 'not shown' {
  const want = letters(sentence);
  if (!evidence || want.length < 20) return 'not shown';
  for (const stance of ['supports', 'refutes', 'neutral'] as const) {
    for (const e of evidence[stance]) {
      const got = letters(e.sentence);
      if (got.length >= 20 && (got.includes(want) || want.includes(got))) return stance;
    }
  }
  return 'not shown';
}

const f4 = (x: number | null | undefined) => (x === null || x === undefined ? '–' : x.toFixed(4));

function table(rows: string[][]): string[] {
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((r) => (r[i] ?? '').length)));
  return rows.map((r) => r.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join('  '));
}

/** The report for people (the CLI prints it; results.json holds the same numbers). */
export function formatNews(s: NewsScore, header: string): string {
  const v = s.verdict;
  const cols = Object.keys(v.confusion[NEWS_LABELS[0]] ?? {});
  const out = [header, '', 'confusion (rows: gold, columns: verdict; MIXED is scored as NOT_ENOUGH_EVIDENCE)'];
  out.push(...table([['', ...cols], ...NEWS_LABELS.map((g) => [g, ...cols.map((c) => String(v.confusion[g]?.[c] ?? 0))])]));
  out.push('', `accuracy ${f4(v.accuracy)}   macro-F1 ${f4(v.macro_f1)}   (${s.claims} claims)`);
  out.push(
    `per label (precision / recall / F1): ${NEWS_LABELS.map((l) => `${l} ${f4(v.per_label[l]?.precision)} / ${f4(v.per_label[l]?.recall)} / ${f4(v.per_label[l]?.f1)}`).join('; ')}`,
  );
  out.push(
    `committed verdicts: ${v.committed.n} of ${s.claims} (coverage ${f4(v.committed.coverage)}), precision ${f4(v.committed.precision)}`,
  );
  out.push(
    `precision by committed label: ${COMMITTED.map((l) => `${l} ${f4(v.precision_committed[l]?.precision)} (${v.precision_committed[l]?.correct ?? 0}/${v.precision_committed[l]?.n ?? 0})`).join('; ')}`,
  );
  if (v.flipped) out.push(`true claims marked REFUTED: ${v.flipped.n} of ${v.flipped.of} (rate ${f4(v.flipped.rate)})`);
  const fc = s.false_claims;
  out.push(
    `false claims: REFUTED ${fc.refuted} of ${fc.n} (${f4(fc.refuted_rate)}), SUPPORTED ${fc.supported} of ${fc.n} (${f4(fc.supported_rate)})`,
  );
  out.push(`the most confident 20% of committed verdicts: ${f4(s.top20.precision)} right (${s.top20.n})`);
  if (s.offtopic.n)
    out.push(
      `off-topic claims: ${s.offtopic.n}, given a verdict ${s.offtopic.with_verdict}, with a sentence shown for or against ${s.offtopic.with_stance_shown}`,
    );
  const d = s.deciding_sentence;
  out.push(
    `deciding sentence shown as (supports / refutes / neutral / not shown): ${NEWS_LABELS.filter((l) => l !== 'NOT_ENOUGH_EVIDENCE')
      .map((l) => `${l} claims ${d[l].supports} / ${d[l].refutes} / ${d[l].neutral} / ${d[l]['not shown']}`)
      .join('; ')}`,
  );
  out.push(
    `retrieval: deciding article in the top 10 for ${s.retrieval.hits} of ${s.retrieval.of} claims (hit@10 ${f4(s.retrieval['hit@10'])}); NEI claims' closest article ${f4(s.retrieval['hit@10_nei_closest'])}`,
  );
  out.push(
    '',
    'risk–coverage (committed verdicts, most confident first; coverage = share of all claims)',
    ...formatRiskCoverage(v.risk_coverage),
  );
  out.push(
    '',
    `accuracy by corpus: ${Object.entries(s.by_corpus)
      .map(([k, x]) => `${k} ${f4(x.accuracy)} (${x.n})`)
      .join('; ')}`,
  );
  out.push(
    `accuracy by kind: ${Object.entries(s.by_kind)
      .map(([k, x]) => `${k} ${f4(x.accuracy)} (${x.n})`)
      .join('; ')}`,
  );
  if (s.keywords.n)
    out.push(
      `keyword queries (expect no verdict): ${s.keywords.items.map((k) => `"${k.query}" → ${k.verdict ?? `none (${k.status})`}`).join('; ')}`,
    );
  if (s.failed.length) out.push(`failed queries: ${s.failed.map((f) => `${f.id} ${f.error}`).join('; ')}`);
  out.push('', 'goals for news claims:', ...s.goals.map((g) => `  [${g.ok ? 'OK' : 'FAIL'}] ${g.name} ${f4(g.value)} (${g.target})`));
  return out.join('\n');
}
