-- Feeds read leniently (XML that was not well-formed) keep the warning of their last document.
-- Mirrors prisma/schema.prisma (Feed.parseWarning).
ALTER TABLE "feeds" ADD COLUMN "parse_warning" TEXT;
