import type { Likeness } from '../../../../../events/accounts';
import type { SignedIn } from '../PortalGate';

/** The talent's earnings: this month live, the statements, the chart, CSVs and payouts (docs/royalties.md#talent-portal). */
export function EarningsSection(_props: { auth: SignedIn; likeness: Likeness }) {
  return null;
}
