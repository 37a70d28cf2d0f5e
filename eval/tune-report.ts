/** The tuning report: the best setting of each method on train, with its dev score (pure). */
import type { CvResult, SettingScore } from './tune';

export interface TuneTable {
  depth: number;
  best: Record<string, SettingScore>;
  scores: SettingScore[];
}

export interface TuneCv extends CvResult {
  k: number;
  /** Snippets per index the folds were scored at (the product's RETRIEVE_K). */
  depth: number;
  /** nDCG@10 of the chosen weight on the dev claims, per depth. */
  dev: Record<number, number | null>;
}

export interface TuneReport {
  /** Claims fitted on, and which. */
  train: number;
  fitOn?: string;
  dev: number;
  encoder: string;
  tables: TuneTable[];
  cv: TuneCv | null;
  text: string;
}

const f = (x: number | null) => (x === null ? '–' : x.toFixed(4));

export function formatTuneReport(r: Omit<TuneReport, 'text'>): TuneReport {
  const lines = [
    `fusion tuning: nDCG@10, fit on ${r.train} claims${r.fitOn ? ` (${r.fitOn})` : ''}, checked on ${r.dev} dev claims (encoder ${r.encoder})`,
  ];
  for (const t of r.tables) {
    lines.push('', `depth ${t.depth} snippets per index`, 'setting                          bm25 weight  fit     dev');
    for (const [name, s] of Object.entries(t.best)) {
      lines.push(
        `${name.padEnd(16)} ${`${s.fusion}${s.normalization ? `/${s.normalization}` : ''}`.padEnd(15)}  ${s.bm25Weight.toFixed(2).padStart(11)}  ${f(s.train)}  ${f(s.dev)}`,
      );
    }
  }
  if (r.cv) {
    const c = r.cv;
    lines.push(
      '',
      `score fusion (min-max), BM25 weight by ${c.k}-fold cross-validation over the fit claims, depth ${c.depth}`,
      'fold  claims  chosen  held-out nDCG@10',
      ...c.folds.map(
        (f) =>
          `${String(f.fold + 1).padStart(4)}  ${String(f.queries).padStart(6)}  ${f.chosen.toFixed(2).padStart(6)}  ${f.heldOut.toFixed(4)}`,
      ),
      `held-out nDCG@10: ${c.heldOut.mean.toFixed(4)} ± ${c.heldOut.sd.toFixed(4)} (mean ± sd over folds)`,
      `chosen: ${c.chosen.toFixed(2)} (${c.rule}); dev nDCG@10 ${Object.entries(c.dev)
        .map(([d, v]) => `${f(v)} at depth ${d}`)
        .join(', ')}`,
    );
  }
  return { ...r, text: lines.join('\n') };
}
