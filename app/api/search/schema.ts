/**
 * GET /api/search: the query string and the response are the search contract's own schemas
 * (ranking/schema.ts), the ones the CLI and the pipeline validate with; the OpenAPI document is
 * generated from them. The handler validates with the limits of the settings (QUIN_MAX_QUERY_CHARS):
 * `searchQueryFor(limits)`; `searchQuery` is the same schema with the default limits.
 */
import {
  PUBLIC_LIMITS,
  searchRequestFields,
  searchRequestSchema,
  searchResponseSchema,
  type SearchLimits,
  type SearchParams,
} from '../../../ranking/schema';

export const searchQuery = searchRequestSchema(PUBLIC_LIMITS);
export const searchQueryFor = (limits: SearchLimits) => searchRequestSchema(limits);
/** The same fields without the page · k check, for the contracts built from a part of them (export, follow, stories, fact-checks). */
export const searchFieldsFor = (limits: SearchLimits) => searchRequestFields(limits);
export const searchResponse = searchResponseSchema;
/** A validated search request, as the page URLs carry it. */
export type SearchQuery = SearchParams;
