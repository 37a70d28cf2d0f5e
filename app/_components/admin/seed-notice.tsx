import type { SeedState } from '../../../crawler';
import { formatAbsolute } from '../../../lib/web/time-format';

/** Says why the default news feeds were not added (offline first start, or QUIN_SEED_FEEDS=false) and adds them when asked. */
export function SeedNotice({ state, csrf, count }: { state: SeedState; csrf: string; count: number }) {
  if (state.kind === 'seeded' || state.kind === 'pending') return null;
  return (
    <div className="notice notice--info seed-notice" data-testid="seed-notice">
      <p>
        <strong>The {count} default news feeds were not added</strong>
        {state.kind === 'skipped'
          ? ` at the first start (${formatAbsolute(new Date(state.at))}): ${state.reason}. This machine may be offline; the next start tries again.`
          : ': automatic seeding is off (QUIN_SEED_FEEDS=false).'}
      </p>
      <form method="post" action="/admin/feeds">
        <input type="hidden" name="csrf" value={csrf} />
        <input type="hidden" name="op" value="seed" />
        <button type="submit" className="button button--small">
          Add the {count} default feeds
        </button>
      </form>
    </div>
  );
}
