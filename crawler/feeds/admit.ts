/**
 * The one rule for every way a feed gets in: `quin feeds add`, an OPML file (CLI and dashboard), the
 * API and dashboard's "Add", and the default list. The address must be an http(s) URL without
 * credentials, of at most MAX_URL_CHARS, and must not name a private, loopback, link-local or
 * metadata address (by literal or by what its name resolves to), unless QUIN_ALLOW_PRIVATE_HOSTS is
 * set. A refusal is an INVALID_INPUT that says why; imports list it among their skipped entries.
 * (The crawl checks the address again at every connection: DNS can change.)
 */
import type { Config } from '../../lib/config';
import type { Db } from '../../lib/db/client';
import { createError, isQuinError } from '../../lib/errors';
import { assertUrlAllowed } from '../http';
import { addFeed, normalizeFeedUrl, type AddFeedOptions } from './manage';

export const MAX_URL_CHARS = 2000;

/** The normalised URL when the rule lets it in; INVALID_INPUT with the reason otherwise. */
export async function checkFeedUrl(rawUrl: string, config: Pick<Config, 'allowPrivateHosts'>): Promise<string> {
  const url = normalizeFeedUrl(rawUrl);
  if (url.length > MAX_URL_CHARS) throw createError('INVALID_INPUT', `feed URLs are at most ${MAX_URL_CHARS} characters`);
  try {
    await assertUrlAllowed(new URL(url), config.allowPrivateHosts);
  } catch (e) {
    if (!isQuinError(e, 'FETCH_BLOCKED')) throw e;
    // Only a private address is a matter of QUIN_ALLOW_PRIVATE_HOSTS; another scheme or credentials are refused always.
    const hint = e.details?.refused === 'address' ? 'refused (QUIN_ALLOW_PRIVATE_HOSTS=true allows such addresses)' : 'refused';
    throw createError('INVALID_INPUT', `${e.message}: ${hint}`, { cause: e.code });
  }
  return url;
}

/** Adds a feed under the rule (checkFeedUrl), then as addFeed does (CONFLICT when it is there already). */
export async function admitFeed(db: Db, config: Pick<Config, 'allowPrivateHosts'>, rawUrl: string, opts: AddFeedOptions) {
  return addFeed(db, await checkFeedUrl(rawUrl, config), opts);
}
