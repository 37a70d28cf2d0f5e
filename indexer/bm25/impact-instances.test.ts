/**
 * The accelerator's build reads FTS5's instances a term at a time (one concatenated list each); the
 * builder must get exactly what the row-by-row read gives it. A real FTS5 table: titles and texts,
 * accents and ligatures folded by the tokenizer, a term in many rows, rowids with gaps and below zero.
 */
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ImpactBuilder } from './impact';
import { addInstances, type InstanceSource } from './impact-instances';

const WORDS = 'study studies patient cancer risk café naïve ﬁsh gene mice heart blood the a of 2024 e-mail'.split(' ');

describe('reading FTS5 instances into the accelerator’s builder', () => {
  let db: Database.Database;
  const src: InstanceSource = {
    vocab: 'v',
    rows: 'r',
    columns: new Map([
      ['title', 0],
      ['text', 1],
    ]),
  };
  const rowids = () => db.prepare('SELECT rowid FROM t').pluck().all() as number[];
  const build = (maxPerTerm?: number) => {
    const b = new ImpactBuilder(rowids());
    return addInstances(db, src, b, maxPerTerm) ? b.finish() : null;
  };

  beforeEach(() => {
    db = new Database(':memory:');
    db.exec(`CREATE VIRTUAL TABLE t USING fts5(title, text, tokenize='unicode61 remove_diacritics 2')`);
    db.exec(`CREATE VIRTUAL TABLE temp.v USING fts5vocab(main, 't', 'instance')`);
    db.exec(`CREATE VIRTUAL TABLE temp.r USING fts5vocab(main, 't', 'row')`);
    const ins = db.prepare('INSERT INTO t (rowid, title, text) VALUES (?, ?, ?)');
    let seed = 11;
    const rand = () => (seed = (seed * 1103515245 + 12345) >>> 0) / 2 ** 32;
    const words = (n: number) => Array.from({ length: n }, () => WORDS[Math.floor(rand() ** 2 * WORDS.length)]).join(' ');
    for (let i = 0; i < 400; i++)
      ins.run(i === 0 ? -7 : i * 3, rand() < 0.2 ? '' : words(1 + Math.floor(rand() * 5)), words(3 + Math.floor(rand() * 40)));
  });
  afterEach(() => db.close());

  it('gives the builder what the row-by-row read gives it, term for term', () => {
    const byTerm = build()!;
    const byRow = build(0)!; // every term "too long": read row by row
    expect(byTerm.terms.length).toBeGreaterThan(10);
    expect(byTerm.terms).toEqual(byRow.terms);
    expect(byTerm.terms).toContain('cafe');
    for (const k of ['termStart', 'postDoc', 'postTf0', 'postTf1', 'docIds', 'docLen'] as const)
      expect([...byTerm[k]], k).toEqual([...byRow[k]]);
    // The rowid below zero is read as itself.
    expect(byTerm.docIds[0]).toBe(-7);
    expect(byTerm.docLen[0]).toBeGreaterThan(0);
  });

  it('stops at a row the builder does not hold, and at a column it does not know', () => {
    const b = new ImpactBuilder(rowids().slice(1));
    expect(addInstances(db, src, b)).toBe(false);
    const textOnly = new ImpactBuilder(rowids());
    expect(addInstances(db, { ...src, columns: new Map([['text', 1]]) }, textOnly)).toBe(false);
  });
});
