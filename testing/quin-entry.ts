// The `quin` command without bin/quin.mjs's set-up check (see testing/quin-cli.ts for when it is used).
// QUIN_TEST_TUNING (JSON, tests only: never read by the product) varies code constants in this child
// process, as createTestDb({ tuning }) does in the test's own (lib/config.ts Tuning).
import { main } from '../cli/main';
import { setProcessTuning, type Tuning } from '../lib/config';

if (process.env.QUIN_TEST_TUNING) setProcessTuning(JSON.parse(process.env.QUIN_TEST_TUNING) as Tuning);

process.exitCode = await main(process.argv.slice(2));
