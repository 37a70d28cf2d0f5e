/**
 * The held-out labelled pairs (pairs.jsonl rows whose split is not train: build-pairs.ts; the dev
 * minimal pairs of minimal-pairs.ts) as the product's judge reads them: the NLI model's probabilities
 * and the details stage's features (details/compare.ts DETAIL_FEATURES: topic, details confirmed and
 * contradicted by kind, …), for train_verdict.py to fit the reading combiner — how the model and the
 * details weigh — by cross-validation, and to report each set as the product reads it. Written to
 * .cache/training/stance/features.jsonl.
 *
 *   npx tsx training/stance/featurize.ts [--model DIR] [--sets a,b] [--resume]
 *
 * --resume keeps the rows an interrupted run wrote with the same model (whole claims only) and goes on
 * from there: the pairs are read in a fixed order, a claim's rows written together.
 */
import fs from 'node:fs';
import path from 'node:path';
import readline from 'node:readline';
import { NliClassifier } from '../../lib/models';
import { Lexicon } from '../../ranking/verdict/details/lexicon';
import { DETAIL_FEATURES } from '../../ranking/verdict/details/compare';
import { contradicts, StanceJudge } from '../../ranking/verdict/judge';
import type { NliPairRow } from './nli-sets';

const DIR = path.resolve('.cache/training/stance');
const r4 = (x: number) => Math.round(x * 1e4) / 1e4;

async function main() {
  const i = process.argv.indexOf('--model');
  const nli = await NliClassifier.load(path.resolve(i > 0 ? process.argv[i + 1]! : 'models/quin-nli'));
  const judge = new StanceJudge(nli, Lexicon.read(path.resolve('models/quin-align/lexicon.json.gz')));
  // --sets a,b: only these sets' held-out pairs (a quicker first fit of the reading; the card wants them all).
  const s = process.argv.indexOf('--sets');
  const only = s > 0 ? new Set(process.argv[s + 1]!.split(',')) : null;
  const rows: (NliPairRow & { kind?: string })[] = [];
  for (const file of ['pairs.jsonl', 'minimal.jsonl']) {
    if (!fs.existsSync(path.join(DIR, file))) {
      console.warn(`${path.join(DIR, file)} missing: its held-out pairs are not featurized`);
      continue;
    }
    for await (const line of readline.createInterface({ input: fs.createReadStream(path.join(DIR, file)) })) {
      if (!line.trim()) continue;
      const r = JSON.parse(line) as NliPairRow & { ids?: number[]; kind?: string };
      if (r.split === 'train' || (only && !only.has(r.set.replace(/-unrelated$/, '')))) continue;
      delete r.ids;
      rows.push(r);
    }
  }
  const byClaim = new Map<string, number[]>();
  rows.forEach((r, k) => (byClaim.get(r.claim) ?? byClaim.set(r.claim, []).get(r.claim)!).push(k));
  const out = path.join(DIR, 'features.jsonl');
  const header = JSON.stringify({ model: nli.id, features: DETAIL_FEATURES });
  const kept = process.argv.includes('--resume') ? keptRows(out, header, [...byClaim.values()]) : 0;
  if (kept === 0) fs.writeFileSync(out, header + '\n');
  const fd = fs.openSync(out, 'a');
  let done = 0;
  for (const [claim, idx] of byClaim) {
    if (done < kept) {
      done += idx.length;
      continue;
    }
    const judged = await judge.judge(
      claim,
      idx.map((k) => rows[k]!.evidence),
    );
    idx.forEach((k, j) => {
      const r = rows[k]!;
      const g = judged[j]!;
      fs.writeSync(
        fd,
        JSON.stringify({
          set: r.set,
          split: r.split,
          group: r.group,
          label: r.label,
          ...(r.kind ? { kind: r.kind } : {}),
          model: [g.model.supports, g.model.refutes, g.model.neutral].map(r4),
          contra: contradicts(g.comparison) ? 1 : 0,
          x: DETAIL_FEATURES.map((f) => r4(g.comparison.values[f])),
        }) + '\n',
      );
    });
    done += idx.length;
    if (done % 5000 < idx.length) console.log(`${done}/${rows.length}`);
  }
  fs.closeSync(fd);
  await nli.close();
  console.log(`wrote ${path.join(DIR, 'features.jsonl')}: ${rows.length} held-out pairs, model ${nli.id}`);
}

/** Rows of whole claims an earlier run with this header wrote (the file cut back to them), else 0. */
function keptRows(file: string, header: string, claims: number[][]): number {
  if (!fs.existsSync(file)) return 0;
  const lines = fs.readFileSync(file, 'utf8').split('\n');
  if (lines[0] !== header) return 0;
  const written = lines.slice(1).filter((l) => l.endsWith('}')).length;
  let whole = 0;
  for (const idx of claims) {
    if (whole + idx.length > written) break;
    whole += idx.length;
  }
  fs.writeFileSync(file, [header, ...lines.slice(1, 1 + whole)].join('\n') + '\n');
  console.log(`resuming after ${whole} rows`);
  return whole;
}

main().catch((e) => (console.error(e), process.exit(1)));
