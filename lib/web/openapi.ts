/**
 * The OpenAPI 3.1 document, generated from the same zod schemas that the route handlers validate
 * with (zod 4 emits JSON Schema 2020-12, which OpenAPI 3.1 uses), so the two cannot drift apart.
 */
import { z } from 'zod';

export type HttpMethod = 'get' | 'post' | 'patch' | 'delete' | 'put';

export interface ApiResponseSpec {
  description: string;
  schema?: z.ZodType;
  /** Default application/json. */
  contentType?: string;
  headers?: Record<string, { description: string; schema: Record<string, unknown> }>;
}

export interface ApiOperation {
  method: HttpMethod;
  /** OpenAPI path, e.g. /api/feeds. */
  path: string;
  operationId: string;
  summary: string;
  tags: string[];
  /** Admin operations need the session cookie and, when they change state, the CSRF header. */
  auth: 'public' | 'admin';
  query?: z.ZodObject;
  body?: z.ZodType;
  responses: Record<number, ApiResponseSpec>;
}

type JsonSchema = Record<string, unknown>;

function jsonSchema(schema: z.ZodType, io: 'input' | 'output'): JsonSchema {
  const { $schema: _drop, ...rest } = z.toJSONSchema(schema, { io, unrepresentable: 'any', target: 'draft-2020-12' }) as JsonSchema;
  return rest;
}

function queryParameters(query: z.ZodObject): JsonSchema[] {
  return Object.entries(query.shape).map(([name, field]) => {
    const f = field as z.ZodType;
    // The parsed value's schema: what each text parameter must spell (coercion from text is implied).
    const schema = jsonSchema(f, 'output');
    const description = typeof schema.description === 'string' ? schema.description : undefined;
    const param: JsonSchema = { name, in: 'query', required: !f.safeParse(undefined).success, schema };
    if (description) param.description = description;
    if (schema.type === 'array') Object.assign(param, { style: 'form', explode: true });
    return param;
  });
}

export function buildOpenApiDocument(ops: ApiOperation[], info: { title: string; version: string; description: string }): JsonSchema {
  const paths: Record<string, Record<string, JsonSchema>> = {};
  for (const op of ops) {
    const responses: Record<string, JsonSchema> = {};
    for (const [status, r] of Object.entries(op.responses)) {
      const entry: JsonSchema = { description: r.description };
      if (r.schema) entry.content = { [r.contentType ?? 'application/json']: { schema: jsonSchema(r.schema, 'output') } };
      else if (r.contentType) entry.content = { [r.contentType]: { schema: { type: 'string' } } };
      if (r.headers) entry.headers = r.headers;
      responses[status] = entry;
    }
    const operation: JsonSchema = { operationId: op.operationId, summary: op.summary, tags: op.tags, responses };
    if (op.query) operation.parameters = queryParameters(op.query);
    if (op.body) operation.requestBody = { required: true, content: { 'application/json': { schema: jsonSchema(op.body, 'input') } } };
    if (op.auth === 'admin') operation.security = [{ session: [], csrf: [] }];
    (paths[op.path] ??= {})[op.method] = operation;
  }
  return {
    openapi: '3.1.0',
    info,
    paths,
    components: {
      securitySchemes: {
        session: { type: 'apiKey', in: 'cookie', name: 'quin_session', description: 'Set by POST /api/auth/login.' },
        csrf: {
          type: 'apiKey',
          in: 'header',
          name: 'x-csrf-token',
          description: 'Returned by POST /api/auth/login; required on POST, PATCH and DELETE.',
        },
      },
    },
  };
}
