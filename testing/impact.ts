/**
 * Fixtures for the BM25 accelerator's tests (indexer/bm25/impact*.test.ts): a seeded random source,
 * flat postings from explicit lists, and rows of the real corpora in ../shared/data cut as the
 * product cuts them (title + windows of 5 sentences, stride 3) — read here directly, since indexer/
 * tests may not import the crawler.
 */
import fs from 'node:fs';
import path from 'node:path';
import { expect } from 'vitest';
import type { FtsRow } from '../indexer/bm25/fts5';
import { ImpactBuilder, type ImpactArrays } from '../indexer/bm25/impact';
import { sharedData } from './shared-data';

export { mulberry32 as rng } from '../lib/random';

/** Flat arrays from explicit postings: term → [rowid, title frequency, text frequency][] (rowids ascending). */
export function impactArrays(rowids: number[], postings: Record<string, [number, number, number][]>): ImpactArrays {
  const b = new ImpactBuilder(rowids);
  let ok = true;
  for (const term of Object.keys(postings).sort()) {
    for (const [id, tf0, tf1] of postings[term]!) {
      for (let i = 0; i < tf0; i++) ok &&= b.add(term, id, 0);
      for (let i = 0; i < tf1; i++) ok &&= b.add(term, id, 1);
    }
  }
  expect(ok).toBe(true);
  return b.finish();
}

function windows(title: string, sentences: string[], out: Omit<FtsRow, 'id'>[], source: string): void {
  for (let i = 0; i < sentences.length; i += 3) {
    const text = sentences.slice(i, i + 5).join(' ');
    if (text.length >= 40) out.push({ title, text, source, publishedAt: null });
    if (i + 5 >= sentences.length) break;
  }
}

/** SciFact's abstracts and BBC News's stories as snippet rows (no ids), or null without the shared data. */
export function corpusRows(): Omit<FtsRow, 'id'>[] | null {
  const scifact = sharedData('scifact', 'corpus.jsonl');
  const bbc = sharedData('news', 'bbc');
  if (!scifact || !bbc) return null;
  const out: Omit<FtsRow, 'id'>[] = [];
  for (const line of fs.readFileSync(scifact, 'utf8').split('\n')) {
    if (!line.trim()) continue;
    const doc = JSON.parse(line) as { title: string; sentences: string[] };
    windows(doc.title, doc.sentences, out, 'SciFact');
  }
  for (const topic of fs.readdirSync(bbc).filter((f) => fs.statSync(path.join(bbc, f)).isDirectory())) {
    for (const file of fs.readdirSync(path.join(bbc, topic)).sort()) {
      const [title = '', ...body] = fs.readFileSync(path.join(bbc, topic, file), 'latin1').split('\n');
      const sentences = body
        .join(' ')
        .split(/(?<=[.!?])\s+(?=["'A-Z0-9])/)
        .filter((s) => s.trim());
      windows(title.trim(), sentences, out, 'BBC News');
    }
  }
  return out;
}

/** SciFact's claims (the first `n`). */
export function scifactClaims(n: number): string[] {
  const file = sharedData('scifact', 'claims_train.jsonl');
  if (!file) return [];
  return fs
    .readFileSync(file, 'utf8')
    .split('\n')
    .filter((l) => l.trim())
    .slice(0, n)
    .map((l) => (JSON.parse(l) as { claim: string }).claim);
}

/** Where two hit lists differ (row, score — the very same double — or length), or null; cheaper than a deep compare of thousands of hits. */
export function firstDifference(
  a: readonly { snippetId: number; score: number }[],
  b: readonly { snippetId: number; score: number }[],
): string | null {
  for (let i = 0; i < Math.min(a.length, b.length); i++)
    if (a[i]!.snippetId !== b[i]!.snippetId || !Object.is(a[i]!.score, b[i]!.score))
      return `#${i}: ${a[i]!.snippetId} ${a[i]!.score} vs ${b[i]!.snippetId} ${b[i]!.score}`;
  return a.length === b.length ? null : `length ${a.length} vs ${b.length}`;
}
