/**
 * Minimal structured logger. Lines go to stderr so that `--json` output on stdout stays clean.
 * On a terminal the format is human-readable; otherwise one JSON object a line (easy to grep and
 * to ship). QUIN_LOG_LEVEL / QUIN_LOG_FORMAT override; read directly from the environment so that
 * logging works before (and while) the configuration is validated.
 */
export type LogLevel = 'debug' | 'info' | 'warn' | 'error' | 'silent';
const ORDER: Record<LogLevel, number> = { debug: 10, info: 20, warn: 30, error: 40, silent: 99 };

export interface Logger {
  debug(msg: string, fields?: Record<string, unknown>): void;
  info(msg: string, fields?: Record<string, unknown>): void;
  warn(msg: string, fields?: Record<string, unknown>): void;
  error(msg: string, fields?: Record<string, unknown>): void;
  child(scope: string): Logger;
}

function currentLevel(): LogLevel {
  const v = (process.env.QUIN_LOG_LEVEL ?? 'info').toLowerCase();
  return v in ORDER ? (v as LogLevel) : 'info';
}

function useJson(): boolean {
  const f = process.env.QUIN_LOG_FORMAT;
  if (f === 'json') return true;
  if (f === 'text') return false;
  return !process.stderr.isTTY;
}

function formatValue(v: unknown): string {
  if (v instanceof Error) return JSON.stringify(v.message);
  if (typeof v === 'string') return /\s/.test(v) ? JSON.stringify(v) : v;
  return JSON.stringify(v);
}

export function createLogger(scope = 'quin'): Logger {
  const write = (level: Exclude<LogLevel, 'silent'>, msg: string, fields?: Record<string, unknown>) => {
    if (ORDER[level] < ORDER[currentLevel()]) return;
    if (useJson()) {
      const rec: Record<string, unknown> = { t: new Date().toISOString(), level, scope, msg };
      for (const [k, v] of Object.entries(fields ?? {})) rec[k] = v instanceof Error ? v.message : v;
      process.stderr.write(JSON.stringify(rec) + '\n');
    } else {
      const extra = Object.entries(fields ?? {})
        .map(([k, v]) => `${k}=${formatValue(v)}`)
        .join(' ');
      process.stderr.write(`${level.toUpperCase().padEnd(5)} [${scope}] ${msg}${extra ? ' ' + extra : ''}\n`);
    }
  };
  return {
    debug: (m, f) => write('debug', m, f),
    info: (m, f) => write('info', m, f),
    warn: (m, f) => write('warn', m, f),
    error: (m, f) => write('error', m, f),
    child: (s) => createLogger(`${scope}:${s}`),
  };
}

export const log = createLogger();
