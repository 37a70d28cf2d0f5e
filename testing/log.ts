/** A logger for tests that keeps every line it is given, with its level and fields. */
import type { Logger } from '../lib/log';

export interface LoggedLine {
  level: string;
  msg: string;
  fields?: Record<string, unknown>;
}

export function recordingLogger(): { log: Logger; lines: LoggedLine[] } {
  const lines: LoggedLine[] = [];
  const at =
    (level: string) =>
    (msg: string, fields?: Record<string, unknown>): void =>
      void lines.push({ level, msg, fields });
  const log: Logger = { debug: at('debug'), info: at('info'), warn: at('warn'), error: at('error'), child: () => log };
  return { log, lines };
}
