import { describeError } from '../../lib/errors';
import { forgetStartupDelays } from '../../lib/event-loop';
import { createLogger } from '../../lib/log';
import { warmCheck } from './check';
import { searchContext } from './services';

const log = createLogger('web');

/** Starts loading the search context; failures are logged (health shows them) and retried on use. */
export function warmUp(): void {
  const t0 = Date.now();
  searchContext().then(
    // The loop was held while they loaded: expected once, not a sign of trouble (health reads the rest).
    () => log.info('search indexes and models loaded', { ms: Date.now() - t0, eventLoopHeldMs: forgetStartupDelays() }),
    (e: unknown) => log.warn('search is not available yet', { error: describeError(e) }),
  );
  // After the models, not beside them: both hold the two cores for a while.
  void searchContext()
    .catch(() => undefined)
    .then(warmCheck);
}
