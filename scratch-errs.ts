import { loadConfig } from './lib/config';
import { createVerdictStage } from './ranking/verdict';
import { newsPairs } from './eval/verdict-pin';
async function main() {
  const stage = (await createVerdictStage(loadConfig()))!;
  const pairs = newsPairs();
  const c: Record<string, number> = {};
  for (const p of pairs) {
    const [j] = await stage.judgeSentences(p.claim, [p.evidence]);
    const k = `${p.gold}->${j!.stance}`;
    c[k] = (c[k] ?? 0) + 1;
    if (p.gold !== j!.stance && process.argv[2] === k) console.log(`${p.claim}\n   ${p.evidence}\n   ${j!.stance} ${JSON.stringify(j!.probs)} ${j!.reason} cov=${j!.coverage.toFixed(2)}`);
  }
  console.log(c);
}
main();
