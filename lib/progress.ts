/**
 * Progress for long-running commands: a redrawn status line (count, rate, ETA) on a terminal, and a
 * plain log line every few seconds when not on a terminal (CI logs, pipes).
 */
import { createLogger } from './log';

export interface Progress {
  tick(n?: number): void;
  setTotal(total: number): void;
  done(summary?: string): void;
}

export interface ProgressOptions {
  label: string;
  total?: number;
  unit?: string;
  /** Milliseconds between log lines when not on a terminal. */
  logEveryMs?: number;
  stream?: NodeJS.WriteStream;
}

export function formatDuration(seconds: number): string {
  if (!Number.isFinite(seconds) || seconds < 0) return '?';
  if (seconds < 60) return `${Math.round(seconds)}s`;
  const m = Math.floor(seconds / 60);
  if (m < 60) return `${m}m${String(Math.round(seconds % 60)).padStart(2, '0')}s`;
  return `${Math.floor(m / 60)}h${String(m % 60).padStart(2, '0')}m`;
}

export function progressLine(label: string, count: number, total: number | undefined, elapsedS: number, unit: string): string {
  const rate = elapsedS > 0 ? count / elapsedS : 0;
  const parts = [`${label}: ${count}${total ? `/${total}` : ''} ${unit}`];
  if (total) parts.push(`${((100 * count) / Math.max(total, 1)).toFixed(1)}%`);
  parts.push(`${rate.toFixed(rate < 10 ? 1 : 0)} ${unit}/s`);
  if (total && rate > 0) parts.push(`ETA ${formatDuration((total - count) / rate)}`);
  return parts.join(' · ');
}

export function createProgress(opts: ProgressOptions): Progress {
  const stream = opts.stream ?? process.stderr;
  // QUIN_PROGRESS=plain: a developer switch (tests that run the CLI on a pseudo-terminal), not a setting.
  const tty = Boolean(stream.isTTY) && process.env.QUIN_PROGRESS !== 'plain';
  const unit = opts.unit ?? 'items';
  const logger = createLogger('progress');
  const started = Date.now();
  let total = opts.total;
  let count = 0;
  let lastDraw = 0;
  const every = opts.logEveryMs ?? 5000;

  const render = (force: boolean) => {
    const now = Date.now();
    if (!force && now - lastDraw < (tty ? 100 : every)) return;
    lastDraw = now;
    const line = progressLine(opts.label, count, total, (now - started) / 1000, unit);
    if (tty) stream.write(`\r\x1b[2K${line}`);
    else logger.info(line);
  };

  return {
    tick(n = 1) {
      count += n;
      render(false);
    },
    setTotal(t) {
      total = t;
    },
    done(summary) {
      const line = progressLine(opts.label, count, total, (Date.now() - started) / 1000, unit);
      if (tty) stream.write(`\r\x1b[2K${line}${summary ? ` · ${summary}` : ''}\n`);
      else logger.info(`${line} (done)${summary ? ` ${summary}` : ''}`);
    },
  };
}
