/**
 * Failpoints for the crash tests: with QUIN_FAILPOINT=<name>[:<n>] the process kills itself with
 * SIGKILL the n-th time (default 1st) it passes the named point, exactly as `kill -9` would, so the
 * tests can stop `quin index` between any two of its durable steps. Unset in normal use: one string
 * comparison per checkpoint. A test switch, not a setting (lib/config.ts).
 */
const counts = new Map<string, number>();

export function failpoint(name: string): void {
  const spec = process.env.QUIN_FAILPOINT;
  if (!spec) return;
  const m = /^(.*?)(?::(\d+))?$/.exec(spec)!;
  const [, target, nth] = m;
  if (target !== name) return;
  const seen = (counts.get(name) ?? 0) + 1;
  counts.set(name, seen);
  if (seen >= Number(nth ?? 1)) process.kill(process.pid, 'SIGKILL');
}
