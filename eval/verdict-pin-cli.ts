/** npx tsx eval/verdict-pin-cli.ts [--update]: checks (or rewrites) eval/regressions/verdict/*.json. */
import { loadConfig } from '../lib/config';
import { sharedDataDir } from '../lib/paths';
import { createVerdictStage } from '../ranking/verdict';
import { checkPins } from './verdict-pin';

async function main() {
  const stage = await createVerdictStage(loadConfig());
  if (!stage) throw new Error('no verdict model is configured (QUIN_NLI_MODEL)');
  let failed = 0;
  for (const { name, diff } of await checkPins(stage, sharedDataDir(), process.argv.includes('--update'))) {
    if (diff === null) console.log(`[SKIP] ${name}: its data is not here`);
    else if (!diff.length) console.log(`[OK] ${name}`);
    else {
      failed++;
      diff.forEach((d) => console.log(`[FAIL] ${d}`));
    }
  }
  process.exitCode = failed ? 1 : 0;
}

main().catch((e) => (console.error(e), process.exit(1)));
