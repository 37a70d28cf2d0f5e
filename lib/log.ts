/**
 * Structured logging with pino. Lines go to stderr so that `--json` output on stdout stays clean.
 * On a terminal the format is human-readable (`INFO  [scope] message key=value`); otherwise one JSON
 * object a line (`{"level","t","scope",...fields,"msg"}`: easy to grep and to ship).
 *
 * The level is the `logLevel` setting (lib/config.ts): QUIN_LOG_LEVEL is read at each line, so that
 * logging works before (and while) the configuration is validated, and the config file's value takes
 * over once getConfig() has loaded it (the environment still wins, as for every setting).
 * QUIN_LOG_FORMAT (`json` | `text`) is a developer switch, not a setting: it forces one format where
 * the terminal check guesses wrong (tests, the e2e server log).
 */
import pino from 'pino';

export type LogLevel = 'debug' | 'info' | 'warn' | 'error' | 'silent';
const ORDER: Record<LogLevel, number> = { debug: 10, info: 20, warn: 30, error: 40, silent: 99 };

export interface Logger {
  debug(msg: string, fields?: Record<string, unknown>): void;
  info(msg: string, fields?: Record<string, unknown>): void;
  warn(msg: string, fields?: Record<string, unknown>): void;
  error(msg: string, fields?: Record<string, unknown>): void;
  child(scope: string): Logger;
}

let configuredLevel: LogLevel | undefined;
/** The `logLevel` setting as the configuration resolved it (file included); called by getConfig(). */
export function setConfiguredLogLevel(level: LogLevel | undefined): void {
  configuredLevel = level;
}

function currentLevel(): LogLevel {
  const v = (process.env.QUIN_LOG_LEVEL ?? '').toLowerCase();
  return v in ORDER ? (v as LogLevel) : (configuredLevel ?? 'info');
}

function useJson(): boolean {
  const f = process.env.QUIN_LOG_FORMAT;
  if (f === 'json') return true;
  if (f === 'text') return false;
  return !process.stderr.isTTY;
}

function formatValue(v: unknown): string {
  if (typeof v === 'string') return /\s/.test(v) ? JSON.stringify(v) : v;
  return JSON.stringify(v);
}

/** pino's JSON line as the terminal format. */
function asText(line: string): string {
  const { level, scope, msg, t: _t, ...fields } = JSON.parse(line) as Record<string, unknown>;
  const extra = Object.entries(fields)
    .map(([k, v]) => `${k}=${formatValue(v)}`)
    .join(' ');
  return `${String(level).toUpperCase().padEnd(5)} [${String(scope)}] ${String(msg)}${extra ? ' ' + extra : ''}\n`;
}

// One pino instance for the process; each scope is a child. Written through process.stderr (tests
// and supervisors capture it there), in the format chosen when the line is written.
const root = pino(
  {
    level: 'debug',
    base: undefined,
    messageKey: 'msg',
    timestamp: () => `,"t":"${new Date().toISOString()}"`,
    formatters: { level: (label) => ({ level: label }) },
  },
  { write: (line: string) => void process.stderr.write(useJson() ? line : asText(line)) },
);

/** Error values become their message (a stack in a log line is for errorResponse alone). */
function plain(fields: Record<string, unknown> | undefined): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(fields ?? {})) out[k] = v instanceof Error ? v.message : v;
  return out;
}

export function createLogger(scope = 'quin'): Logger {
  const p = root.child({ scope });
  const write = (level: Exclude<LogLevel, 'silent'>, msg: string, fields?: Record<string, unknown>) => {
    if (ORDER[level] < ORDER[currentLevel()]) return;
    p[level](plain(fields), msg);
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
