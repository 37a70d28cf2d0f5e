/**
 * The OpenAPI document and the route handlers agree: every documented operation has a handler that
 * exports that method, every JSON handler is documented, and the generated schemas are what the
 * handlers validate with (parsing a documented example through the same zod schema).
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildOpenApiDocument } from '../../lib/web/openapi';
import { exportQueryFor } from '../api/export/schema';
import { searchQuery } from '../api/search/schema';
import { API_OPERATIONS, apiOperations } from './api-operations';

const appDir = path.resolve(__dirname, '..');

function routeFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) return routeFiles(p);
    return e.name === 'route.ts' ? [p] : [];
  });
}

/** "METHOD /path" of every handler, from the files (app/admin/* form handlers are not part of the JSON API). */
function handlers(): string[] {
  const out: string[] = [];
  for (const file of routeFiles(appDir)) {
    const route = '/' + path.relative(appDir, path.dirname(file)).split(path.sep).join('/');
    if (route.startsWith('/admin')) continue;
    const code = fs.readFileSync(file, 'utf8');
    for (const m of code.matchAll(/export const (GET|POST|PATCH|DELETE|PUT) =/g)) out.push(`${m[1]} ${route}`);
    for (const m of code.matchAll(/export (?:async )?function (GET|POST|PATCH|DELETE|PUT)\b/g)) out.push(`${m[1]} ${route}`);
  }
  return out.sort();
}

describe('OpenAPI document', () => {
  const doc = buildOpenApiDocument(API_OPERATIONS, { title: 't', version: '1', description: 'd' }) as {
    openapi: string;
    paths: Record<
      string,
      Record<
        string,
        { parameters?: { name: string; required: boolean; schema: Record<string, unknown> }[]; requestBody?: unknown; security?: unknown }
      >
    >;
  };

  it('documents exactly the handlers that exist', () => {
    const documented = Object.entries(doc.paths)
      .flatMap(([p, ops]) => Object.keys(ops).map((m) => `${m.toUpperCase()} ${p}`))
      .sort();
    expect(documented).toEqual(handlers());
  });

  it('has a schema file beside every route handler', () => {
    for (const file of routeFiles(appDir)) expect(fs.existsSync(path.join(path.dirname(file), 'schema.ts')), file).toBe(true);
  });

  it('generates the search parameters from the schema the handler parses with', () => {
    const params = doc.paths['/api/search']!.get!.parameters!;
    expect(params.map((p) => p.name)).toEqual(Object.keys(searchQuery.shape));
    expect(params.find((p) => p.name === 'q')).toMatchObject({ required: true, schema: { type: 'string', minLength: 1, maxLength: 1000 } });
    expect(params.find((p) => p.name === 'k')).toMatchObject({
      required: false,
      schema: { type: 'integer', minimum: 1, maximum: 100, default: 10 },
    });
    expect(params.find((p) => p.name === 'sort')!.schema).toMatchObject({ enum: ['relevance', 'newest'] });
    // What the document says is accepted, the handler's schema accepts, and vice versa.
    expect(searchQuery.safeParse({ q: 'x', k: '100', sort: 'newest' }).success).toBe(true);
    expect(searchQuery.safeParse({ q: 'x', k: '101' }).success).toBe(false);
  });

  it("holds the journalists' operations to the search's own parameters and the server's limits", () => {
    const limits = { maxQueryChars: 50, maxK: 100 };
    const narrow = buildOpenApiDocument(apiOperations(limits), { title: 't', version: '1', description: 'd' }) as typeof doc;
    for (const p of ['/api/search', '/api/export', '/api/follow', '/api/stories', '/api/fact-checks']) {
      const q = narrow.paths[p]!.get!.parameters!.find((x) => x.name === 'q');
      expect(q, p).toMatchObject({ required: true, schema: { type: 'string', minLength: 1, maxLength: 50 } });
    }
    const names = (p: string) => doc.paths[p]!.get!.parameters!.map((x) => x.name);
    expect(names('/api/export')).toEqual([...Object.keys(searchQuery.shape).filter((n) => n !== 'coverage'), 'format']);
    // asOf bounds the publication date everywhere ("as of" is the archive as it was that day): the follow feed
    // and the fact-checks take it too.
    expect(names('/api/follow')).toEqual(['q', 'halfLifeDays', 'asOf', 'from', 'to', 'maxAgeDays', 'sources']);
    expect(names('/api/stories')).toEqual(['q', 'halfLifeDays', 'asOf', 'from', 'to', 'maxAgeDays', 'sources']);
    expect(names('/api/fact-checks')).toEqual(['q', 'asOf']);
    // The export pages like the search: the same depth limit (page · k at most 5000).
    expect(exportQueryFor(limits).safeParse({ q: 'x', k: '100', page: '50' }).success).toBe(true);
    expect(exportQueryFor(limits).safeParse({ q: 'x', k: '100', page: '51' }).success).toBe(false);
    expect(exportQueryFor(limits).safeParse({ q: 'x'.repeat(51) }).success).toBe(false);
  });

  it('marks admin operations with the session and CSRF schemes', () => {
    expect(doc.paths['/api/feeds']!.post!.security).toEqual([{ session: [], csrf: [] }]);
    expect(doc.paths['/api/search']!.get!.security).toBeUndefined();
    expect(doc.openapi).toBe('3.1.0');
  });
});
