/**
 * An in-memory SQLite FTS5 BM25 index (porter stemmer, as the product's default BM25) used to mine
 * hard negatives and first-stage scores for training. Queries are built from word tokens only.
 */
import Database from 'better-sqlite3';

export class Fts {
  private db = new Database(':memory:');
  constructor() {
    this.db.exec(`CREATE VIRTUAL TABLE f USING fts5(title, body, tokenize = 'porter unicode61')`);
  }
  add(rows: { id: number; title: string; body: string }[]): void {
    const ins = this.db.prepare('INSERT INTO f(rowid, title, body) VALUES (?, ?, ?)');
    this.db.transaction(() => rows.forEach((r) => ins.run(r.id, r.title, r.body)))();
  }
  search(text: string, k: number): { id: number; score: number }[] {
    const terms = [...new Set(text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [])].filter((t) => t.length > 1);
    if (!terms.length) return [];
    const q = terms.map((t) => `"${t}"`).join(' OR ');
    const rows = this.db
      .prepare('SELECT rowid AS id, -bm25(f, 1.0, 1.0) AS score FROM f WHERE f MATCH ? ORDER BY bm25(f, 1.0, 1.0) LIMIT ?')
      .all(q, k) as { id: number; score: number }[];
    return rows;
  }
}
