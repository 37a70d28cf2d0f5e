#!/usr/bin/env node
// `npm start` (after scripts/ensure-setup.mjs): the whole product with embedded defaults.
//   1. configuration check, database migrations, admin password, default feeds (scripts/start/prepare.ts)
//   2. the production build of the web app, made when missing or when sources changed (scripts/start/build.mjs)
//   3. the web server (scripts/start/web-server.mjs) and the background worker (`quin worker`: crawler
//      loop + incremental indexer), both supervised: a child that dies is restarted, the other keeps going
//   4. Ctrl-C (SIGINT) or SIGTERM stops everything cleanly, whenever it comes (a build in progress
//      included). `npm start` execs this script (package.json), so that the SIGTERM a process manager
//      sends to npm reaches it, not only npm's shell.
// Honours HOST, PORT, QUIN_DATA_DIR and every other setting in lib/config.ts.
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { ensureBuild } from './start/build.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
process.env.QUIN_ROOT ??= root;
process.chdir(root);
const say = (m) => process.stderr.write(m + '\n');

// Signals are handled from the first moment: before the supervisor exists, a stop ends the build in
// progress (if any) and exits; afterwards it stops the supervised children first.
let supervisor = null;
let buildChild = null;
let signals = 0;
async function shutdown(signal) {
  signals += 1;
  if (signals > 1) {
    say('start: second signal, exiting now');
    process.exit(130);
  }
  if (!supervisor) {
    say(`start: ${signal} received while starting; stopping`);
    buildChild?.kill('SIGTERM');
    process.exit(0);
  }
  say(`start: ${signal} received, stopping the web server and the worker ...`);
  await supervisor.stop();
  say('start: stopped');
  process.exit(0);
}
process.on('SIGINT', () => void shutdown('SIGINT'));
process.on('SIGTERM', () => void shutdown('SIGTERM'));

const { register } = await import(pathToFileURL(path.join(root, 'node_modules/tsx/dist/esm/api/index.mjs')).href);
register();
const { prepare } = await import(pathToFileURL(path.join(root, 'scripts/start/prepare.ts')).href);
const { describeError } = await import(pathToFileURL(path.join(root, 'lib/errors.ts')).href);
const { Supervisor } = await import(pathToFileURL(path.join(root, 'scripts/start/supervisor.ts')).href);

let info;
try {
  info = await prepare();
  await ensureBuild(root, say, (child) => (buildChild = child));
} catch (err) {
  say(`start: ${describeError(err)}`);
  process.exit(1);
}

supervisor = new Supervisor({ log: say });
const env = { ...process.env, QUIN_DATA_DIR: info.dataDir, HOST: info.host, PORT: String(info.port) };

function banner(url) {
  const lines = [
    '',
    `  Quin news is running at ${url}`,
    `  admin dashboard: ${url}/admin  (user "${info.adminUser}")`,
    `  data: ${info.dataDir}   database: ${info.database}`,
    `  background worker (crawler + indexer): ${info.worker ? 'on' : 'off (QUIN_WORKER=false)'}`,
  ];
  if (info.seededFeeds) lines.push(`  seeded ${info.seededFeeds} default news feeds (edit them on the dashboard)`);
  else if (info.seed?.kind === 'skipped')
    lines.push(
      `  the default news feeds were NOT added: ${info.seed.reason}.`,
      '  (no internet?) Add them from the dashboard when this machine is online, or add your own feeds; the next start tries again.',
    );
  if (info.generatedPassword) {
    lines.push(
      '',
      `  No admin password was configured, so one was generated. It is shown ONCE and stored only as a hash`,
      `  in ${path.join(info.dataDir, 'secrets')}:   ${info.generatedPassword}`,
      `  (set QUIN_ADMIN_PASSWORD_HASH from \`npx quin admin hash-password\`, or \`npx quin admin reset-password\`)`,
    );
  } else if (info.adminPasswordSource === 'none') {
    lines.push('  admin sign-in is disabled: no password hash is configured');
  }
  lines.push('  Ctrl-C stops everything.', '');
  say(lines.join('\n'));
}

let announced = false;
supervisor.add({
  name: 'web',
  module: path.join(root, 'scripts/start/web-server.mjs'),
  env,
  onMessage: (msg) => {
    if (msg?.type !== 'listening') return;
    if (!announced) banner(msg.url);
    else say(`start: web server listening again at ${msg.url}`);
    announced = true;
  },
});
if (info.worker) {
  supervisor.add({ name: 'worker', module: path.join(root, 'scripts/start/worker.mjs'), env });
}
