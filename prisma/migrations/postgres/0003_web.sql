-- Web service: small key/value state (e.g. when the default feeds were seeded) and the heartbeats of
-- background workers (`quin worker`), read by /api/health and /metrics. Mirrors prisma/schema.prisma.
CREATE TABLE "app_settings" (
  "key" TEXT NOT NULL PRIMARY KEY,
  "value" TEXT NOT NULL,
  "updated_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP
);

CREATE TABLE "worker_heartbeats" (
  "id" TEXT NOT NULL PRIMARY KEY,
  "pid" INTEGER NOT NULL,
  "hostname" TEXT NOT NULL,
  "state" TEXT NOT NULL,
  "detail" TEXT,
  "started_at" TIMESTAMP(3) NOT NULL,
  "beat_at" TIMESTAMP(3) NOT NULL
);
CREATE INDEX "worker_heartbeats_beat_at_idx" ON "worker_heartbeats"("beat_at");
