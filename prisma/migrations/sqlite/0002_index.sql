-- Indexes (indexer/): BM25 over snippets with SQLite FTS5, and the bookkeeping of the dense (FAISS)
-- and Elasticsearch indexes. Mirrors prisma/schema.prisma (the FTS5 table and its triggers have no model).

-- FTS5 with external content: the text is stored once, in "snippets"; the index is kept in step by
-- triggers in the same transaction as every snippet write, so it cannot drift from the table (a
-- changed article's snippets are deleted and re-inserted with new ids; cascaded deletes fire too).
-- porter over unicode61: stemming measured ≈ +0.03 nDCG@10 on SciFact snippets.
CREATE VIRTUAL TABLE "snippets_fts" USING fts5(
  "title", "text",
  content='snippets', content_rowid='id',
  tokenize='porter unicode61 remove_diacritics 2'
);
CREATE TRIGGER "snippets_fts_insert" AFTER INSERT ON "snippets" BEGIN
  INSERT INTO "snippets_fts" (rowid, "title", "text") VALUES (new."id", new."title", new."text");
END;
CREATE TRIGGER "snippets_fts_delete" AFTER DELETE ON "snippets" BEGIN
  INSERT INTO "snippets_fts" ("snippets_fts", rowid, "title", "text") VALUES ('delete', old."id", old."title", old."text");
END;
CREATE TRIGGER "snippets_fts_update" AFTER UPDATE OF "title", "text" ON "snippets" BEGIN
  INSERT INTO "snippets_fts" ("snippets_fts", rowid, "title", "text") VALUES ('delete', old."id", old."title", old."text");
  INSERT INTO "snippets_fts" (rowid, "title", "text") VALUES (new."id", new."title", new."text");
END;
INSERT INTO "snippets_fts" ("snippets_fts") VALUES ('rebuild');

-- One row per index the indexer maintains ("dense", "elasticsearch", "fts5-file"): its checkpoint.
CREATE TABLE "index_state" (
  "name" TEXT NOT NULL PRIMARY KEY,
  "version" INTEGER NOT NULL DEFAULT 0,
  "backend" TEXT NOT NULL,
  "encoder_id" TEXT,
  "dim" INTEGER,
  "factory" TEXT,
  "pooling" TEXT,
  "file" TEXT,
  "file_sha256" TEXT,
  "file_bytes" BIGINT,
  "ntotal" INTEGER NOT NULL DEFAULT 0,
  "updated_at" DATETIME NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
);

-- FAISS position → snippet id of the index file named in index_state. A deleted snippet takes its
-- entry with it (the position becomes a tombstone, skipped at search time until compaction).
CREATE TABLE "dense_entries" (
  "position" INTEGER NOT NULL PRIMARY KEY,
  "snippet_id" INTEGER NOT NULL,
  CONSTRAINT "dense_entries_snippet_id_fkey" FOREIGN KEY ("snippet_id") REFERENCES "snippets" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);
CREATE UNIQUE INDEX "dense_entries_snippet_id_key" ON "dense_entries"("snippet_id");

-- Snippets that are (or may be) in the Elasticsearch index: written before a bulk request
-- ("pending") and confirmed after it ("done"), removed only after ES confirmed the delete, so the
-- ledger always covers what ES holds, whatever moment a crash hits.
CREATE TABLE "es_entries" (
  "snippet_id" INTEGER NOT NULL PRIMARY KEY,
  "state" TEXT NOT NULL
);
