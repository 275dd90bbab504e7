import { reportNotClosed, ReportNotClosedInput } from './service';

/** Step ReportNotClosed of the RoyaltyClose state machine: `{ talentId, month, error }` -> `{ talentId, outcome: 'not-closed', error }`. */
export async function handler(event: unknown) {
  return reportNotClosed(ReportNotClosedInput.parse(event));
}
