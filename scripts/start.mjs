#!/usr/bin/env node
// `npm start` (after scripts/ensure-setup.mjs): the whole product with embedded defaults.
//   0. the port: a busy PORT ends the start at once with one message (who holds it, what to set)
//   1. configuration check, database migrations, admin password, default feeds (scripts/start/prepare.ts);
//      a generated admin password is printed the moment it is made
//   2. the production build of the web app, made when missing or when sources changed (scripts/start/build.mjs)
//   3. the web server (scripts/start/web-server.mjs) and the background worker (`quin worker`: crawler
//      loop + incremental indexer), both supervised: a child that dies is restarted, the other keeps going
//      (but a web server that cannot have its port ends the start: restarting would not help)
//   4. Ctrl-C (SIGINT), SIGTERM or SIGHUP stops everything cleanly, whenever it comes (a build in progress
//      included): the children first — the worker waits for its indexing process, whose pass in progress
//      gets 10 s to finish and otherwise stops at a checkpoint — and "start: stopped" last. The same Ctrl-C arriving twice (from the terminal and
//      forwarded by npm) counts once; another one later kills what is left at once.
//      `npm start` execs this script (package.json), so that the SIGTERM a process manager sends to npm
//      reaches it, not only npm's shell.
// Honours HOST, PORT, QUIN_DATA_DIR and every other setting in lib/config.ts.
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { ensureBuild } from './start/build.mjs';
import { checkPort, startCommand } from './start/port.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
process.env.QUIN_ROOT ??= root;
process.chdir(root);
const say = (m) => process.stderr.write(m + '\n');

// Signals are handled from the first moment: before the supervisor exists, a stop ends the build in
// progress (if any) and exits; afterwards it stops the supervised children first.
let supervisor = null;
let buildChild = null;
let stopping = null;
let firstSignalAt = 0;
/** Signals closer than this to the first are the same stop (the terminal's and npm's copy of one Ctrl-C). */
const SAME_SIGNAL_MS = 1500;

async function shutdown(signal, code = 0) {
  if (!supervisor) {
    say(`start: ${signal} received while starting; stopping`);
    if (buildChild) {
      const child = buildChild;
      const gone = new Promise((r) => child.once('exit', r));
      child.kill('SIGTERM');
      await gone;
    }
  } else {
    say(
      `start: ${signal} received, stopping the web server and the worker (an indexing pass gets 10 s to finish, else stops at a checkpoint) ...`,
    );
    await supervisor.stop();
  }
  say('start: stopped');
  process.exit(code);
}

function onSignal(signal) {
  if (stopping) {
    if (Date.now() - firstSignalAt < SAME_SIGNAL_MS) return;
    say('start: second signal: killing what is left now (the next start finishes or rolls back what was cut short)');
    supervisor?.kill();
    buildChild?.kill('SIGKILL');
    process.exit(130);
  }
  firstSignalAt = Date.now();
  stopping = shutdown(signal);
}
process.on('SIGINT', () => onSignal('SIGINT'));
process.on('SIGTERM', () => onSignal('SIGTERM'));
process.on('SIGHUP', () => onSignal('SIGHUP'));

const { register } = await import(pathToFileURL(path.join(root, 'node_modules/tsx/dist/esm/api/index.mjs')).href);
register();
const { getConfig } = await import(pathToFileURL(path.join(root, 'lib/config.ts')).href);
const { prepare, adminPasswordLines } = await import(pathToFileURL(path.join(root, 'scripts/start/prepare.ts')).href);
const { describeError } = await import(pathToFileURL(path.join(root, 'lib/errors.ts')).href);
const { Supervisor } = await import(pathToFileURL(path.join(root, 'scripts/start/supervisor.ts')).href);
const { webNodeFlags } = await import(pathToFileURL(path.join(root, 'lib/web/node-flags.ts')).href);

let info;
try {
  // The port first: a start that cannot listen says so before it migrates, builds or makes a password.
  const { host, port } = getConfig();
  const busy = await checkPort(host, port, startCommand());
  if (busy) {
    say(`start: ${busy}`);
    process.exit(1);
  }
  info = await prepare();
  // The admin password is shown the moment it is made, before anything else can fail.
  const admin = adminPasswordLines(info);
  if (admin.length) say(['', ...admin, ''].join('\n'));
  await ensureBuild(root, say, (child) => (buildChild = child));
} catch (err) {
  if (stopping) await stopping;
  say(`start: ${describeError(err)}`);
  process.exit(1);
}
if (stopping) await stopping;

supervisor = new Supervisor({
  log: say,
  onFatal: (name) => {
    if (stopping) return;
    say(`start: the ${name} server cannot run (see above); stopping`);
    firstSignalAt = Date.now();
    stopping = supervisor.stop().then(() => {
      say('start: stopped');
      process.exit(1);
    });
  },
});
// The settings the web server reads before any TypeScript loads, as the configuration resolved them
// (config file included): it reads these variables only.
const env = {
  ...process.env,
  QUIN_DATA_DIR: info.dataDir,
  HOST: info.host,
  PORT: String(info.port),
  QUIN_TRUST_PROXY: String(getConfig().trustProxy),
};

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
  // Repeated here (it was printed when made): the banner is what people read.
  const admin = adminPasswordLines(info);
  if (admin.length) lines.push('', ...admin);
  lines.push('  Ctrl-C stops everything.', '');
  say(lines.join('\n'));
}

let announced = false;
supervisor.add({
  name: 'web',
  module: path.join(root, 'scripts/start/web-server.mjs'),
  // The heap's growth held in check (lib/web/node-flags.ts); an operator's NODE_OPTIONS heap size wins.
  execArgv: webNodeFlags(env),
  env,
  // 98: the port is taken, 13: no permission for it, 99: HOST is not an address here (web-server.mjs).
  fatalExitCodes: [98, 13, 99],
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
