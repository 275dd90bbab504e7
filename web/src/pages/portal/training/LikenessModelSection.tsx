import { lazy, Suspense } from 'react';
import type { SignedIn } from '../PortalGate';

// Its own chunk: the card, its dialog and the training contract load with the section, not with the portal.
const LikenessModelCard = lazy(() => import('./LikenessModelCard'));

/** "Your likeness model": its training, the samples and the talent's approval (docs/training.md). */
export function LikenessModelSection(props: { auth: SignedIn }) {
  return (
    <Suspense
      fallback={
        <section className="card acct-card" aria-busy="true" aria-label="Your likeness model" data-testid="likeness-model">
          <p className="acct-muted">Loading your likeness model…</p>
        </section>
      }
    >
      <LikenessModelCard {...props} />
    </Suspense>
  );
}
