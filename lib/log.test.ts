import { afterEach, describe, expect, it, vi } from 'vitest';
import { createLogger, setConfiguredLogLevel } from './log';

const env = { ...process.env };
afterEach(() => {
  process.env = { ...env };
  setConfiguredLogLevel(undefined);
  vi.restoreAllMocks();
});

function capture(): string[] {
  const lines: string[] = [];
  vi.spyOn(process.stderr, 'write').mockImplementation((chunk: string | Uint8Array) => {
    lines.push(String(chunk));
    return true;
  });
  return lines;
}

describe('log (pino)', () => {
  it('writes one JSON object a line: level, time, scope, fields and message; errors as their message', () => {
    process.env.QUIN_LOG_FORMAT = 'json';
    const lines = capture();
    createLogger('crawl').warn('feed check failed', { feed: 'https://x.test/rss', failures: 2, error: new Error('HTTP 503') });
    expect(lines).toHaveLength(1);
    const rec = JSON.parse(lines[0]!) as Record<string, unknown>;
    expect(rec).toEqual({
      level: 'warn',
      t: expect.stringMatching(/^\d{4}-\d\d-\d\dT.*Z$/),
      scope: 'crawl',
      feed: 'https://x.test/rss',
      failures: 2,
      error: 'HTTP 503',
      msg: 'feed check failed',
    });
  });

  it('writes a readable line on a terminal format, and honours QUIN_LOG_LEVEL at each line', () => {
    process.env.QUIN_LOG_FORMAT = 'text';
    process.env.QUIN_LOG_LEVEL = 'info';
    const lines = capture();
    const log = createLogger('worker').child('index');
    log.debug('not shown');
    log.info('started', { tasks: 'crawl,index', note: 'two words' });
    process.env.QUIN_LOG_LEVEL = 'debug';
    log.debug('now shown');
    expect(lines).toEqual(['INFO  [worker:index] started tasks=crawl,index note="two words"\n', 'DEBUG [worker:index] now shown\n']);
  });

  it("takes the configured level (the config file's logLevel) when QUIN_LOG_LEVEL is not set", () => {
    process.env.QUIN_LOG_FORMAT = 'text';
    delete process.env.QUIN_LOG_LEVEL;
    setConfiguredLogLevel('error');
    const lines = capture();
    const log = createLogger('web');
    log.warn('not shown');
    log.error('shown');
    process.env.QUIN_LOG_LEVEL = 'warn';
    log.warn('the environment wins');
    expect(lines).toEqual(['ERROR [web] shown\n', 'WARN  [web] the environment wins\n']);
  });
});
