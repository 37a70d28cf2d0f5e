/**
 * /api and /api/<anything else>: not an endpoint. Every method answers the JSON API's error shape with 404
 * (NOT_FOUND) and where the endpoints are listed, instead of the site's HTML "page not found".
 * Not an operation of the OpenAPI document.
 */
import { z } from 'zod';

export const unknownEndpointResponse = z.object({
  error: z.object({ code: z.literal('NOT_FOUND'), message: z.string() }),
});
