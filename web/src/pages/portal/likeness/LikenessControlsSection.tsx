import { lazy, Suspense } from 'react';
import type { Likeness } from '../../../../../events/accounts';
import type { SignedIn } from '../PortalGate';

// The controls, their dialog and the likeness contract load with the section, not with the portal.
const LikenessControls = lazy(() => import('./LikenessControls'));

/** Pause, removal with notice, the exclusive contract's explanation and the data export (docs/royalties.md#likeness). */
export function LikenessControlsSection(props: { auth: SignedIn; likeness: Likeness }) {
  return (
    <Suspense
      fallback={
        <section className="card acct-card" aria-busy="true" data-testid="likeness-controls">
          <p className="acct-muted">Loading your likeness controls…</p>
        </section>
      }
    >
      <LikenessControls {...props} />
    </Suspense>
  );
}
