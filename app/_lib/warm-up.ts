import { describeError } from '../../lib/errors';
import { createLogger } from '../../lib/log';
import { searchContext } from './services';

const log = createLogger('web');

/** Starts loading the search context; failures are logged (health shows them) and retried on use. */
export function warmUp(): void {
  const t0 = Date.now();
  searchContext().then(
    () => log.info('search indexes and models loaded', { ms: Date.now() - t0 }),
    (e: unknown) => log.warn('search is not available yet', { error: describeError(e) }),
  );
}
