/**
 * Features of every labelled pair (pairs.ts) for the stance classifier, written to
 * .cache/training/stance/features.jsonl: the alignment features (ranking/verdict/align, the code the
 * product runs) and the NLI model's probabilities (quin-nli by default; QUIN_NLI_MODEL for another).
 *
 *   npx tsx training/stance/featurize.ts [out]
 */
import fs from 'node:fs';
import path from 'node:path';
import { loadConfig } from '../../lib/config';
import { loadRoleModel } from '../../lib/models';
import { align } from '../../ranking/verdict/align/align';
import { featureVector, stanceFeatures, STANCE_FEATURES } from '../../ranking/verdict/align/features';
import { Lexicon } from '../../ranking/verdict/align/lexicon';
import { nliProbs } from './nli-cache';
import { labelledPairs } from './pairs';

async function main() {
  const out = path.resolve(process.argv[2] ?? '.cache/training/stance/features.jsonl');
  const lex = Lexicon.read(path.resolve('models/quin-align/lexicon.json.gz'));
  const config = loadConfig();
  const nli = await loadRoleModel('nli', config);
  const pairs = [...labelledPairs()];
  console.log(`${pairs.length} pairs; NLI ${nli?.id ?? 'none'}`);
  const probs = await nliProbs(nli, pairs);
  fs.mkdirSync(path.dirname(out), { recursive: true });
  const fd = fs.openSync(out, 'w');
  fs.writeSync(fd, JSON.stringify({ features: STANCE_FEATURES, nli: nli?.id ?? null }) + '\n');
  pairs.forEach((p, i) => {
    const f = stanceFeatures(align(p.claim, p.evidence, lex));
    const q = probs[i];
    fs.writeSync(
      fd,
      JSON.stringify({
        src: p.src,
        group: p.group,
        label: p.label,
        rule: p.rule,
        claim: p.claim,
        evidence: p.evidence,
        x: featureVector(f).map((v) => Math.round(v * 1e4) / 1e4),
        nli: q ? q.map((v) => Math.round(v * 1e4) / 1e4) : null,
      }) + '\n',
    );
  });
  fs.closeSync(fd);
  console.log(`wrote ${out}`);
}

main().catch((e) => (console.error(e), process.exit(1)));
