import type { VerdictLabel } from '../../../ranking/schema';
import { VERDICT_TEXT } from '../../../check/report/labels';

export const VERDICT_CSS: Record<VerdictLabel, string> = {
  SUPPORTED: 'supported',
  REFUTED: 'refuted',
  MIXED: 'mixed',
  NOT_ENOUGH_EVIDENCE: 'unsettled',
};

/** A verdict in words and colour (the words carry it: colour is never the only sign). */
export function VerdictTag({ label }: { label: VerdictLabel | null }) {
  if (!label)
    return (
      <span className="verdict-tag verdict-tag--pending" data-testid="verdict-tag">
        Checking…
      </span>
    );
  return (
    <span className={`verdict-tag verdict-tag--${VERDICT_CSS[label]}`} data-testid="verdict-tag" data-label={label}>
      {VERDICT_TEXT[label]}
    </span>
  );
}
