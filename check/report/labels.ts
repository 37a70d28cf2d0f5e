/** The words a reader sees for the check's labels (the page, the CLI and the CSV use the same). Pure, client-safe. */
import type { VerdictLabel } from '../../ranking/schema';
import type { Outcome } from '../schema';

export const SKIP_REASON_TEXT: Record<string, string> = {
  question: 'a question',
  opinion: 'an opinion or advice, not a statement of fact',
  feeling: 'a quote of a feeling',
  boilerplate: 'page furniture (sharing, sign-up, credits, copyright)',
  fragment: 'too short to be a statement',
  no_detail: 'no checkable detail (no name, number, date or place)',
  over_limit: 'not checked: past the number of claims checked per article',
};

export const VERDICT_TEXT: Record<VerdictLabel, string> = {
  SUPPORTED: 'Supported',
  REFUTED: 'Refuted',
  MIXED: 'Mixed evidence',
  NOT_ENOUGH_EVIDENCE: 'Not enough evidence',
};

export const OUTCOME_TEXT: Record<Outcome, string> = { supported: 'supported', refuted: 'refuted', not_settled: 'not settled' };
