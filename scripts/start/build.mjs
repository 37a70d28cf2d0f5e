// The production build of the web app (`next build` into .next/), made once and made again only when
// its inputs change: the hash of every source file the app can import is kept beside the build.
import { spawn } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

const SOURCE_DIRS = ['app', 'lib', 'crawler', 'indexer', 'ranking', 'public'];
const SOURCE_FILES = ['next.config.js', 'proxy.ts', 'instrumentation.ts', 'tsconfig.json', 'package-lock.json', 'prisma/schema.prisma'];
const SKIP_DIRS = new Set(['node_modules', 'generated', '.next', '__pycache__']);
const STAMP = 'quin-sources.sha256';

function walk(dir, out) {
  let entries;
  try {
    entries = fs.readdirSync(dir, { withFileTypes: true });
  } catch {
    return;
  }
  for (const e of entries.sort((a, b) => a.name.localeCompare(b.name))) {
    if (e.name.startsWith('.')) continue;
    const p = path.join(dir, e.name);
    if (e.isDirectory()) {
      if (!SKIP_DIRS.has(e.name)) walk(p, out);
    } else if (!/\.test\.tsx?$/.test(e.name)) {
      out.push(p);
    }
  }
}

export function sourcesHash(root) {
  const files = [];
  for (const d of SOURCE_DIRS) walk(path.join(root, d), files);
  for (const f of SOURCE_FILES) files.push(path.join(root, f));
  const h = crypto.createHash('sha256');
  for (const f of files) {
    h.update(path.relative(root, f));
    h.update('\0');
    try {
      h.update(fs.readFileSync(f));
    } catch {
      h.update('(absent)');
    }
    h.update('\0');
  }
  return h.digest('hex');
}

function processAlive(pid) {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** One builder at a time per checkout (e.g. `npm start` beside the e2e tests). */
async function withBuildLock(root, fn) {
  const lock = path.join(root, '.next-build.lock');
  for (let waited = 0; ; waited += 1000) {
    try {
      fs.mkdirSync(lock);
      fs.writeFileSync(path.join(lock, 'pid'), String(process.pid));
      break;
    } catch (e) {
      if (e.code !== 'EEXIST') throw e;
      const pid = Number(fs.readFileSync(path.join(lock, 'pid'), 'utf8').trim() || 0);
      if (pid && !processAlive(pid)) {
        fs.rmSync(lock, { recursive: true, force: true });
        continue;
      }
      if (waited > 15 * 60_000) throw new Error(`another build holds ${lock} for too long`);
      await new Promise((r) => setTimeout(r, 1000));
    }
  }
  try {
    return await fn();
  } finally {
    fs.rmSync(lock, { recursive: true, force: true });
  }
}

export function buildIsCurrent(root) {
  const stamp = path.join(root, '.next', STAMP);
  return (
    fs.existsSync(path.join(root, '.next', 'BUILD_ID')) &&
    fs.existsSync(stamp) &&
    fs.readFileSync(stamp, 'utf8').trim() === sourcesHash(root)
  );
}

/** Runs `next build` as a child this process can stop (a signal arriving meanwhile kills it: see onChild). */
function runBuild(root, onChild) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [path.join(root, 'node_modules/next/dist/bin/next'), 'build'], {
      cwd: root,
      stdio: ['ignore', 'inherit', 'inherit'],
      env: { ...process.env, NODE_ENV: 'production', NEXT_TELEMETRY_DISABLED: '1' },
    });
    onChild?.(child);
    child.once('error', reject);
    child.once('exit', (code, signal) => {
      onChild?.(null);
      if (code === 0) resolve();
      else reject(new Error(`next build failed (exit ${code ?? signal})`));
    });
  });
}

/**
 * Builds when needed. Returns 'current' or 'built'; throws when the build fails. `onChild` is told
 * the running build process (and null when it ends), so that a caller stopping on a signal can stop it too.
 */
export async function ensureBuild(root, log = (m) => process.stderr.write(m + '\n'), onChild) {
  if (buildIsCurrent(root)) return 'current';
  return withBuildLock(root, async () => {
    if (buildIsCurrent(root)) return 'current';
    const hash = sourcesHash(root);
    log('start: building the web app (next build; once, and again when sources change) ...');
    const t0 = Date.now();
    await runBuild(root, onChild);
    fs.writeFileSync(path.join(root, '.next', STAMP), hash + '\n');
    log(`start: web app built in ${((Date.now() - t0) / 1000).toFixed(0)} s`);
    return 'built';
  });
}
