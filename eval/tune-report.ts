/** The tuning report: the best setting of each method on train, with its dev score (pure). */
import type { SettingScore } from './tune';

export interface TuneTable {
  depth: number;
  best: Record<string, SettingScore>;
  scores: SettingScore[];
}

export interface TuneReport {
  train: number;
  dev: number;
  encoder: string;
  tables: TuneTable[];
  text: string;
}

const f = (x: number | null) => (x === null ? '–' : x.toFixed(4));

export function formatTuneReport(r: Omit<TuneReport, 'text'>): TuneReport {
  const lines = [`fusion tuning: nDCG@10, fit on ${r.train} train claims, checked on ${r.dev} dev claims (encoder ${r.encoder})`];
  for (const t of r.tables) {
    lines.push('', `depth ${t.depth} snippets per index`, 'setting                          bm25 weight  train   dev');
    for (const [name, s] of Object.entries(t.best)) {
      lines.push(
        `${name.padEnd(16)} ${`${s.fusion}${s.normalization ? `/${s.normalization}` : ''}`.padEnd(15)}  ${s.bm25Weight.toFixed(2).padStart(11)}  ${f(s.train)}  ${f(s.dev)}`,
      );
    }
  }
  return { ...r, text: lines.join('\n') };
}
