import { lazy, Suspense } from 'react';
import type { Likeness } from '../../../../../events/accounts';
import type { SignedIn } from '../PortalGate';

// Its own chunk: the talent portal starts without the royalty views.
const Earnings = lazy(() => import('./Earnings'));

/** The talent's earnings: this month live, the statements, the chart, CSVs and payouts (docs/royalties.md#talent-portal). */
export function EarningsSection(props: { auth: SignedIn; likeness: Likeness }) {
  return (
    <Suspense
      fallback={
        <section className="card acct-card" aria-label="Royalties" data-testid="royalties">
          <p role="status" className="acct-muted">
            Loading your royalties…
          </p>
        </section>
      }
    >
      <Earnings {...props} />
    </Suspense>
  );
}
