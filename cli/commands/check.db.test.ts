/** `quin check` as a user runs it: a text file checked against a real index, as text, JSON and CSV; clear errors. */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_WINDOW, storeArticles } from '../../crawler';
import { runIndex } from '../../indexer';
import { createTestDb, type TestDb } from '../../testing/db';
import { runQuin } from '../../testing/quin-cli';

let t: TestDb;
let env: Record<string, string>;
let file: string;

beforeAll(async () => {
  t = await createTestDb();
  env = { QUIN_DATA_DIR: t.dataDir, DATABASE_URL: t.config.databaseUrlResolved, QUIN_LOG_LEVEL: 'warn' };
  // Our own fixture coverage: one report of a made-up port's year.
  await storeArticles(
    t.db,
    [
      {
        canonicalUrl: 'https://coverage.example/kessling',
        originalUrl: 'https://coverage.example/kessling',
        title: 'Port of Kessling has a record year',
        source: 'Coverage Wire',
        publishedAt: new Date('2024-03-01T09:00:00Z'),
        publishedAtSource: 'item',
        fetchedAt: new Date('2024-03-01T10:00:00Z'),
        textSource: 'import',
        extractionStatus: 'ok',
        text: 'The Port of Kessling handled 4.2 million containers in 2023. The port employs 3,400 people on the Baltic coast.',
      },
    ],
    DEFAULT_WINDOW,
  );
  await runIndex(t.db, t.config, { progress: false });
  file = path.join(t.dataDir, 'article.txt');
  fs.writeFileSync(
    file,
    'Kessling port sets record\n\nThe Port of Kessling handled 4.2 million containers in 2023.\nIt employs 3,400 people and is the largest port on the Baltic coast.\nIs this a new era?\n',
  );
}, 240_000);
afterAll(async () => t?.cleanup());

describe('quin check', () => {
  it('checks a text file claim by claim: the title from its first line, each verdict, the parts, the counts', async () => {
    const r = await runQuin(['check', file], env);
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^Kessling port sets record\n/);
    expect(r.stdout).toContain('3 sentences, 2 check-worthy; all coverage');
    expect(r.stdout).toContain('Is this a new era? (a question)');
    expect(r.stdout).toMatch(/1\. \[(Supported|Refuted|Mixed evidence|Not enough evidence)\] The Port of Kessling handled/);
    expect(r.stdout).toContain('read as: Port of Kessling employs 3,400 people and is the largest port on the Baltic coast.');
    expect(r.stdout).toMatch(/\n2 claims: \d supported, \d refuted, \d not settled \(3 parts checked in [\d.]+ s/);
  }, 120_000);

  it('prints the report as JSON or CSV', async () => {
    const json = await runQuin(['check', file, '--json'], env);
    expect(json.status, json.stderr).toBe(0);
    const report = JSON.parse(json.stdout) as { article: { title: string }; claims: { parts: string[] }[]; summary: { claims: number } };
    expect(report.article.title).toBe('Kessling port sets record');
    expect(report.claims.map((c) => c.parts.length)).toEqual([1, 2]);
    expect(report.summary.claims).toBe(2);
    const csv = await runQuin(['check', file, '--csv'], env);
    expect(csv.status, csv.stderr).toBe(0);
    expect(
      csv.stdout
        .replace(/^\ufeff/, '')
        .split('\r\n')
        .filter(Boolean).length,
    ).toBe(1 + 3);
  }, 120_000);

  it('says what is wrong with a missing file or a text past the limit', async () => {
    const missing = await runQuin(['check', path.join(t.dataDir, 'nope.txt')], env);
    expect(missing.status).toBe(1);
    expect(missing.stderr).toMatch(/no such file: .*nope\.txt \(give a URL, a file or - for stdin\)/);
    const long = path.join(t.dataDir, 'long.txt');
    fs.writeFileSync(long, 'word '.repeat(13_000));
    const tooLong = await runQuin(['check', long], env);
    expect(tooLong.status).toBe(1);
    expect(tooLong.stderr).toMatch(/INVALID_INPUT: the text is 64,999 characters long; at most 60,000/);
  }, 120_000);
});
