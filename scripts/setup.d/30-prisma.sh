#!/usr/bin/env bash
# Prisma clients for SQLite and PostgreSQL, generated offline from prisma/schema.prisma.
set -euo pipefail
stamp=lib/db/generated/.stamp
want=$(sha256sum prisma/schema.prisma scripts/prisma-generate.mjs package-lock.json 2>/dev/null | sha256sum | cut -c1-16)
if [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$want" ] && [ -d lib/db/generated/sqlite ] && [ -d lib/db/generated/postgres ]; then
  echo "  prisma clients up to date"; exit 0
fi
node scripts/prisma-generate.mjs >/dev/null
echo "$want" > "$stamp"
