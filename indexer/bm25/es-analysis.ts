/**
 * The project's own analysis for Elasticsearch: the embedded BM25's tokenizer (FTS5's unicode61 with
 * diacritics removed and porter stemming, FTS_TOKENIZER) run by SQLite itself on an in-memory
 * database, so Elasticsearch indexes and searches exactly the tokens FTS5 does. Elasticsearch then
 * only splits the token strings on spaces (its `whitespace` analyzer, in every distribution): the
 * `english` analyzer lives in the analysis-common module, which not every cluster has, and would
 * stem differently from FTS5 anyway.
 */
import Database from 'better-sqlite3';
import { FTS_TOKENIZER } from './fts5';
import { usableTerms } from './fts5-query';
import { toEsDoc, type EsDoc, type EsRow } from './es-query';

/** Term cache of the query side; cleared when it grows past this (queries repeat words, not sentences). */
const TERM_CACHE_MAX = 50_000;

export class Fts5Analyzer {
  private readonly db: Database.Database;
  private readonly insert: Database.Statement;
  private readonly instances: Database.Statement;
  private readonly joined: Database.Statement;
  private readonly clear: Database.Statement;
  private readonly terms = new Map<string, string[]>();

  constructor() {
    this.db = new Database(':memory:');
    // Contentless: only the index is kept, and 'delete-all' empties it between batches.
    this.db.exec(`CREATE VIRTUAL TABLE a USING fts5(x, content='', tokenize='${FTS_TOKENIZER}')`);
    this.db.exec(`CREATE VIRTUAL TABLE a_v USING fts5vocab(a, instance)`);
    this.insert = this.db.prepare(`INSERT INTO a (rowid, x) VALUES (?, ?)`);
    this.instances = this.db.prepare(`SELECT doc, offset, term FROM a_v`).raw();
    this.joined = this.db.prepare(`SELECT doc, group_concat(term, ' ') FROM a_v GROUP BY doc`).raw();
    this.clear = this.db.prepare(`INSERT INTO a (a) VALUES ('delete-all')`);
  }

  /** Each text's tokens, in text order. */
  tokens(texts: readonly string[]): string[][] {
    const out = texts.map(() => [] as [number, string][]);
    this.db.transaction(() => {
      texts.forEach((t, i) => this.insert.run(i + 1, t));
      for (const [doc, offset, term] of this.instances.iterate() as Iterable<[number, number, string]>) out[doc - 1]!.push([offset, term]);
      this.clear.run();
    })();
    return out.map((pairs) => pairs.sort((a, b) => a[0] - b[0]).map(([, term]) => term));
  }

  /**
   * Each text as its tokens joined by spaces: what the `whitespace` field of a document holds. The
   * tokens are in no particular order: the field keeps frequencies and lengths only (all BM25 reads),
   * and sorting them by offset would double the cost (~0.05 ms a snippet without).
   */
  analyze(texts: readonly string[]): string[] {
    const out = texts.map(() => '');
    this.db.transaction(() => {
      texts.forEach((t, i) => this.insert.run(i + 1, t));
      for (const [doc, joined] of this.joined.iterate() as Iterable<[number, string]>) out[doc - 1] = joined;
      this.clear.run();
    })();
    return out;
  }

  /**
   * A query's tokens: the tokens of each usable term (bm25/fts5-query.ts), as FTS5 gets them from
   * `"a" OR "b"`. A term of several tokens (rare: ranking/ splits words already) is a phrase there
   * and its tokens here, each scored alone.
   */
  queryTokens(terms: readonly unknown[]): string[] {
    const usable = usableTerms(terms);
    const missing = usable.filter((t) => !this.terms.has(t));
    if (missing.length) {
      if (this.terms.size > TERM_CACHE_MAX) this.terms.clear();
      this.tokens(missing).forEach((toks, i) => this.terms.set(missing[i]!, toks));
    }
    return usable.flatMap((t) => this.terms.get(t) ?? []);
  }

  close(): void {
    if (this.db.open) this.db.close();
  }
}

let shared: Fts5Analyzer | undefined;

/** One analyzer per process (an in-memory SQLite database; synchronous, so never used by two callers at once). */
export function fts5Analyzer(): Fts5Analyzer {
  return (shared ??= new Fts5Analyzer());
}

/** Documents for a batch of snippet rows: their titles and texts analysed in two calls. */
export function analysedDocs(rows: readonly EsRow[]): EsDoc[] {
  const analyzer = fts5Analyzer();
  const titles = analyzer.analyze(rows.map((r) => r.title));
  const texts = analyzer.analyze(rows.map((r) => r.text));
  return rows.map((r, i) => toEsDoc(r, { title: titles[i]!, text: texts[i]! }));
}
