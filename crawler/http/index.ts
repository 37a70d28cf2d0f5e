/** The HTTP transport: the one module through which the crawler reaches the network. */
export {
  createHttpClient,
  defaultUserAgent,
  parseFetchUrl,
  type FetchRequest,
  type FetchResponse,
  type HttpClient,
  type HttpConfig,
} from './client';
export { assertUrlAllowed, isBlockedAddress } from './address';
export { parseContentType, type Expect } from './content-type';
export { parseMaxAge, parseRetryAfter } from './retry-after';
export { robotsPolicy, type RobotsPolicy } from './robots';
