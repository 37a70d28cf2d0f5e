#!/usr/bin/env node
// The README's test command (`npm test`): runs every suite and ends with one line
// `N passed, N failed` counted across all of them.
//   1. unit + integration tests (vitest) against SQLite — the loop a developer runs all day; files
//      named *.slow.test.ts (whole corpora, 1 MB hostile inputs, kill -9 runs) are their own suite
//   1b. the slow tests (vitest, SQLite)
//   2. the database tests (*.db.test.ts) again against a real PostgreSQL server
//   The Elasticsearch tests in 1, 1b and 2 run against one real node (scripts/es-node.sh), started
//   here for the whole run and stopped at the end; a file run alone starts its own (testing/es.ts).
//   3. the end-to-end tests (Playwright + Chromium) against the production build
//   0. static checks: typecheck, lint, formatting, the Python's lint and its parity tests (one test each)
// Usage: node scripts/test.mjs [--only static|unit|slow|pg|e2e]... [vitest file filters]
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { elasticsearchForTests } from './es-test-node.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const outDir = path.join(root, 'test-results');
fs.mkdirSync(outDir, { recursive: true });
const args = process.argv.slice(2);
const only = [];
const filters = [];
for (let i = 0; i < args.length; i++) {
  if (args[i] === '--only') only.push(args[++i]);
  else filters.push(args[i]);
}
const want = (s) => only.length === 0 || only.includes(s);
const bin = (name) => path.join(root, 'node_modules/.bin', name);
const totals = { passed: 0, failed: 0, skipped: 0 };
const lines = [];

function readJson(file) {
  try {
    return JSON.parse(fs.readFileSync(file, 'utf8'));
  } catch {
    return undefined;
  }
}

function runVitest(name, extraArgs, env) {
  const out = path.join(outDir, `vitest-${name}.json`);
  fs.rmSync(out, { force: true });
  const r = spawnSync(bin('vitest'), ['run', '--reporter=default', '--reporter=json', `--outputFile.json=${out}`, ...extraArgs], {
    cwd: root,
    stdio: 'inherit',
    env: { ...process.env, ...env },
  });
  const j = readJson(out);
  if (!j) {
    // The runner itself failed (e.g. a syntax error before any test ran): count it as a failure.
    totals.failed += 1;
    lines.push(`${name}: runner failed (exit ${r.status})`);
    return;
  }
  totals.passed += j.numPassedTests;
  totals.failed += j.numFailedTests + (j.numFailedTestSuites > 0 && j.numFailedTests === 0 ? j.numFailedTestSuites : 0);
  totals.skipped += j.numPendingTests + j.numTodoTests;
  lines.push(`${name}: ${j.numPassedTests} passed, ${j.numFailedTests} failed, ${j.numPendingTests} skipped`);
  // Named again in the summary: CI keeps only the tail of the output, where the failures must show.
  for (const f of j.testResults ?? []) {
    const file = path.relative(root, f.name);
    const failed = (f.assertionResults ?? []).filter((a) => a.status === 'failed');
    for (const a of failed) lines.push(`  FAILED ${file} › ${a.fullName ?? a.title}: ${firstLine(a.failureMessages?.[0])}`);
    if (f.status === 'failed' && failed.length === 0) lines.push(`  FAILED ${file}: ${firstLine(f.message)}`);
  }
}

function firstLine(msg) {
  return (
    String(msg ?? '')
      .replace(new RegExp(`${String.fromCharCode(27)}\\[[0-9;]*m`, 'g'), '')
      .split('\n')
      .find((l) => l.trim()) ?? ''
  );
}

// Static checks count as one test each, so that a type error or a broken import rule fails CI.
if (want('static') && filters.length === 0) {
  for (const [name, cmd, cmdArgs] of [
    ['typecheck', bin('tsc'), ['--noEmit', '-p', 'tsconfig.json']],
    ['lint', bin('eslint'), ['.', '--max-warnings=0']],
    ['format', bin('prettier'), ['--check', '--log-level=warn', '.']],
    ['python lint', process.execPath, [path.join(root, 'scripts/ruff.mjs')]],
    ['python tests', '/usr/bin/python3', ['-m', 'pytest', '-q', '-p', 'no:cacheprovider', 'training/tests']],
  ]) {
    const r = spawnSync(cmd, cmdArgs, { cwd: root, stdio: 'inherit' });
    if (r.status === 0) totals.passed += 1;
    else totals.failed += 1;
    lines.push(`${name}: ${r.status === 0 ? 'ok' : 'FAILED'}`);
  }
}

// One Elasticsearch node for every suite; a start that fails counts as a failure here and in every
// Elasticsearch test (scripts/es-test-node.mjs).
const es = elasticsearchForTests(root);
process.on('exit', () => es.stop());
for (const sig of ['SIGINT', 'SIGTERM']) process.on(sig, () => process.exit(130));
function startElasticsearch() {
  const r = es.start();
  lines.push(r.line);
  if (r.failed) totals.failed += 1;
  return r.env;
}
const esEnv = filters.length === 0 && (want('unit') || want('slow') || want('pg')) ? startElasticsearch() : {};

const SLOW = '**/*.slow.*';
if (want('unit')) runVitest('sqlite', filters.length ? filters : ['--exclude', SLOW], { QUIN_TEST_DB: 'sqlite', ...esEnv });
if (want('slow') && filters.length === 0) runVitest('sqlite-slow', ['.slow.'], { QUIN_TEST_DB: 'sqlite', ...esEnv });

if (want('pg')) {
  const pg = spawnSync('bash', [path.join(root, 'scripts/pg-test-server.sh')], { cwd: root, encoding: 'utf8' });
  if (pg.status === 0) {
    // The script's last postgres:// line is the URL; anything else on stdout is a notice.
    const url = pg.stdout
      .split('\n')
      .map((l) => l.trim())
      .filter((l) => l.startsWith('postgres://'))
      .pop();
    runVitest('postgres', filters.length ? filters : ['.db.test.ts'], {
      ...esEnv,
      QUIN_TEST_DB: 'postgres',
      QUIN_TEST_PG_URL: url ?? pg.stdout.trim(),
    });
  } else {
    // CI installs and starts PostgreSQL; on a machine without it this is reported, never hidden.
    totals.failed += 1;
    lines.push(`postgres: could not start a PostgreSQL server: ${(pg.stderr || pg.stdout).trim()}`);
  }
}

es.stop(); // before the end-to-end tests, which have no use for it

if (want('e2e') && fs.existsSync(path.join(root, 'e2e/playwright.config.ts')) && filters.length === 0) {
  const out = path.join(outDir, 'playwright.json');
  fs.rmSync(out, { force: true });
  const r = spawnSync(bin('playwright'), ['test', '--config', 'e2e/playwright.config.ts'], {
    cwd: root,
    stdio: 'inherit',
    env: { ...process.env, PLAYWRIGHT_JSON_OUTPUT_NAME: out },
  });
  const j = readJson(out);
  if (!j) {
    totals.failed += 1;
    lines.push(`e2e: runner failed (exit ${r.status})`);
  } else {
    const s = j.stats;
    totals.passed += s.expected + s.flaky;
    totals.failed += s.unexpected;
    totals.skipped += s.skipped;
    lines.push(`e2e: ${s.expected + s.flaky} passed, ${s.unexpected} failed, ${s.skipped} skipped`);
    for (const t of failedSpecs(j.suites ?? [])) lines.push(`  FAILED ${t}`);
  }
}

/** Titles of the Playwright tests whose outcome was unexpected. */
function failedSpecs(suites, trail = []) {
  const out = [];
  for (const suite of suites) {
    const here = suite.title ? [...trail, suite.title] : trail;
    for (const spec of suite.specs ?? []) {
      if ((spec.tests ?? []).some((t) => t.status === 'unexpected')) out.push([...here, spec.title].join(' › '));
    }
    out.push(...failedSpecs(suite.suites ?? [], here));
  }
  return out;
}

console.log('\n' + lines.join('\n'));
console.log(`${totals.passed} passed, ${totals.failed} failed`);
process.exit(totals.failed > 0 ? 1 : 0);
