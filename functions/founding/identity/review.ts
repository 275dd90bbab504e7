// What the reviewer reads of the proof of person and what an acceptance must pass
// (docs/identity.md, "Verified identity" and "Gates"): the identity as stored, the verification and
// the failed checks kept beside it, in the shape `acceptGates` (events/identity.ts) judges.
import { acceptGates, type AcceptGate, type ReviewIdentity } from '../../../events/identity';
import type { StoredApplication } from '../store';

/** The parts of the application the gates read. */
function gateInputOf(app: Pick<StoredApplication, 'identity' | 'verification' | 'failedChecks'>): Parameters<typeof acceptGates>[0] {
  const identity = app.identity;
  return {
    faceConsent: identity?.faceConsent ?? 'pending',
    ...(identity?.selfie ? { selfie: { state: identity.selfie.state } as NonNullable<ReviewIdentity['selfie']> } : {}),
    ...(app.verification ? { verification: app.verification } : {}),
    ...(app.failedChecks?.length ? { failedChecks: app.failedChecks } : {}),
  };
}

/** The gates accepting this application must pass with a reason and a second proof. */
export const acceptGatesOf = (app: Pick<StoredApplication, 'identity' | 'verification' | 'failedChecks'>): AcceptGate[] => acceptGates(gateInputOf(app));
