// What the appeal page says of the decision it appeals (GET /reports/{reference}/decision): the
// decision in the client's words, its date, the public reason, the reviewer's statement of reasons
// and whether it can still be appealed.
import type { ClientReportDecision } from '../../../../../events/reports';
import { formatDate } from '../../../account/format';

const OUTCOMES: Record<ClientReportDecision['action'], string> = {
  dismiss: 'The report was dismissed',
  'revoke-license': 'Your license was revoked',
  'suspend-client': 'Your account was suspended',
  'remove-sample': "The talent's sample was removed",
};

/** The decision's facts, in the order the page lists them; dates in the reader's time zone (or `timeZone`). */
export function decisionFacts(decision: ClientReportDecision, timeZone?: string): Array<{ term: string; value: string; className?: string }> {
  return [
    { term: 'Decision', value: `${OUTCOMES[decision.action]} on ${formatDate(decision.decidedAt, timeZone)}` },
    { term: 'License', value: decision.licenseId, className: 'appeal-reference' },
    { term: 'Public reason', value: `Because ${decision.publicReason}.` },
  ];
}

/** Whether the decision can be appealed, was, or cannot be. */
export function appealState(decision: ClientReportDecision, timeZone?: string): string {
  const appealed = decision.appealedAt ? formatDate(decision.appealedAt, timeZone) : undefined;
  if (decision.canAppeal) return 'You can appeal this decision once, below.';
  if (decision.status === 'appealed') return `You appealed on ${appealed}: a different reviewer is deciding again.`;
  if (decision.status === 'closed') return `You appealed on ${appealed}; this is the decision made after your appeal. It is final.`;
  return decision.action === 'dismiss' ? 'Nothing was held against your license, so there is nothing to appeal.' : 'This decision cannot be appealed.';
}
