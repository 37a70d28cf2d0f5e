/**
 * POST /api/check: the body is the check's own request schema (check/schema.ts, the one the CLI and
 * the page use); `format` in the query string picks the answer: the events as NDJSON while the check
 * runs (default), or the report as JSON or CSV when it is done.
 */
import { z } from 'zod';
import { checkEventSchema, checkReportSchema, checkRequestSchema } from '../../../check/schema';

export const checkBody = checkRequestSchema;
export const checkQuery = z.object({
  format: z
    .enum(['ndjson', 'json', 'csv'])
    .default('ndjson')
    .describe(
      'ndjson: one event a line as each claim is checked (article, claim…, done); json: the report when done; csv: one row per part.',
    ),
});
export const checkEvent = checkEventSchema;
export const checkReport = checkReportSchema;
