-- Indexes (indexer/): bookkeeping of the dense (FAISS) and Elasticsearch indexes. Mirrors
-- prisma/schema.prisma. With PostgreSQL, BM25 (FTS5) lives in a SQLite file in the data dir, kept
-- in step by `quin index`.

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
  "updated_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP
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
