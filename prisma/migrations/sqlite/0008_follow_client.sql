-- Who asked for a followed search first (a keyed hash of the client's address, never the address), so
-- that one client cannot fill the database with followed searches (issue 21.4: at most a fixed number
-- of live follows per client). Follows made before this migration belong to nobody.
-- Mirrors prisma/schema.prisma (Follow.createdBy).
ALTER TABLE "follows" ADD COLUMN "created_by" TEXT;
CREATE INDEX "follows_created_by_idx" ON "follows"("created_by");
