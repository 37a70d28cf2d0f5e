// The `quin` command without bin/quin.mjs's set-up check (see testing/quin-cli.ts for when it is used).
import { main } from '../cli/main';

process.exitCode = await main(process.argv.slice(2));
