#!/usr/bin/env node
// Generates the Prisma clients for both providers from prisma/schema.prisma. The CLI's schema-engine
// download fails offline, and `generate` never runs it, so any existing file satisfies the check.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
const schema = fs.readFileSync(path.join(root, 'prisma/schema.prisma'), 'utf8');
const pgSchema = schema.replace(/provider\s*=\s*"sqlite"/, 'provider = "postgresql"').replace('../lib/db/generated/sqlite', './postgres');
if (pgSchema === schema) throw new Error('could not derive the PostgreSQL schema');
const genDir = path.join(root, 'lib/db/generated');
fs.mkdirSync(genDir, { recursive: true });
const pgSchemaPath = path.join(genDir, 'schema.postgres.prisma');
fs.writeFileSync(pgSchemaPath, '// GENERATED from prisma/schema.prisma by scripts/prisma-generate.mjs\n' + pgSchema);

const env = {
  ...process.env,
  PRISMA_SCHEMA_ENGINE_BINARY: process.env.PRISMA_SCHEMA_ENGINE_BINARY || process.execPath,
  PRISMA_HIDE_UPDATE_MESSAGE: '1',
};
const prisma = path.join(root, 'node_modules/prisma/build/index.js');
for (const file of [path.join(root, 'prisma/schema.prisma'), pgSchemaPath]) {
  execFileSync(process.execPath, [prisma, 'generate', '--schema', file], { cwd: root, env, stdio: 'inherit' });
}
