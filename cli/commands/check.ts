import fs from 'node:fs';
import type { Command } from 'commander';
import { buildReport, checkArticle, MAX_TEXT_CHARS, parseCheckRequest, reportCsv, type CheckEvent, type CheckRequest } from '../../check';
import { closeSearchIndexes } from '../../indexer';
import { getConfig } from '../../lib/config';
import { getDb } from '../../lib/db/client';
import { createError } from '../../lib/errors';
import { openSearchContext, search } from '../../ranking';
import { printJson } from '../output';
import { formatClaim, formatStart, formatSummary } from './check-format';

interface CheckFlags {
  title?: string;
  published?: string;
  asOf?: string;
  includeLater?: boolean;
  maxClaims?: string;
  json?: boolean;
  csv?: boolean;
}

/** Bytes read from a file or stdin at most: a text past the character limit is refused after this much. */
const MAX_INPUT_BYTES = MAX_TEXT_CHARS * 4 + 1024;

async function readInput(source: string): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  const stream = source === '-' ? process.stdin : fs.createReadStream(source);
  for await (const chunk of stream) {
    size += (chunk as Buffer).length;
    if (size > MAX_INPUT_BYTES) break;
    chunks.push(chunk as Buffer);
  }
  if (source !== '-') (stream as fs.ReadStream).destroy();
  return Buffer.concat(chunks).toString('utf8');
}

/**
 * A file's text, and its title when it opens with one: a short first line without a full stop,
 * followed by a blank line (as the BBC corpus and many saved articles are laid out).
 */
export function titled(text: string): { title?: string; text: string } {
  const m = /^([^\n]{3,200})\n[ \t]*\n/.exec(text.replace(/\r\n?/g, '\n'));
  if (!m || /[.!?]["”]?\s*$/.test(m[1]!)) return { text };
  return { title: m[1]!.trim(), text: text.replace(/\r\n?/g, '\n').slice(m[0].length) };
}

async function requestOf(input: string, f: CheckFlags): Promise<CheckRequest> {
  const common = { asOf: f.asOf, includeLater: f.includeLater, maxClaims: f.maxClaims };
  if (/^https?:\/\//i.test(input)) return { url: input, ...common };
  if (input !== '-' && !fs.existsSync(input))
    throw createError('INVALID_INPUT', `no such file: ${input} (give a URL, a file or - for stdin)`);
  const { title, text } = titled(await readInput(input));
  return { text, title: f.title ?? title, publishedAt: f.published, ...common };
}

export function register(program: Command): void {
  program
    .command('check')
    .description('check an article claim by claim against the indexed coverage: a URL, a text file or - (stdin)')
    .argument('<input>', 'an http(s) URL, a text file (a short first line then a blank line is its title) or - for stdin')
    .option('--title <text>', 'the title of a pasted text (helps resolve "the company")')
    .option('--published <date>', 'when a pasted text was published (coverage after that day is left out)')
    .option('--as-of <date>', 'check against the coverage as it was on this day (default: the article’s day)')
    .option('--include-later', 'also use coverage published after the article')
    .option('--max-claims <n>', 'claims to check (default and most 40)')
    .option('--json', 'print the report as JSON when done')
    .option('--csv', 'print the report as CSV when done (one row per part)')
    .action(async (input: string, flags: CheckFlags) => {
      const config = getConfig();
      const request = await requestOf(input, flags);
      const db = await getDb(config);
      const color = Boolean(process.stdout.isTTY) && !process.env.NO_COLOR;
      const quiet = flags.json || flags.csv;
      try {
        const ctx = await openSearchContext(config, db);
        const events: CheckEvent[] = [];
        for await (const e of checkArticle(request, { config, db, runSearch: (r) => search(r, ctx) })) {
          events.push(e);
          if (quiet) continue;
          if (e.type === 'article') process.stdout.write(formatStart(e, color));
          else if (e.type === 'claim') process.stdout.write(formatClaim(e.claim, color));
          else if (e.type === 'done') process.stdout.write(formatSummary(e.summary, color));
        }
        const params = parseCheckRequest(request);
        const report = buildReport(
          events,
          { url: params.url ?? null, includeLater: params.includeLater ?? false, asOf: params.asOf ?? null },
          new Date(),
        );
        if (flags.json) printJson(report);
        else if (flags.csv && report) process.stdout.write(reportCsv(report));
      } finally {
        await closeSearchIndexes();
      }
    });
}
