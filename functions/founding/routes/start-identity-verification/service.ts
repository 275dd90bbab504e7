// `POST /founding-identity/verification` (docs/identity.md, "Verified identity"): opens the
// applicant's Stripe Identity VerificationSession, created by us for this application only, and
// answers Stripe's hosted page. An open session (Stripe says `requires_input`) is reused; a new
// one is created only while the application has sessions left (each verification is paid), and
// recorded on the application (with the index item a webhook finds it by) before the answer.
import type Stripe from 'stripe';
import type { VerificationResponse } from '../../../../events/identity';
import { ConflictError } from '../../../shared/errors';
import { log } from '../../../shared/log';
import { CLOSED, openByToken, type ApplicantIdentityDeps } from '../../identity/applicant';
import { IDENTITY_MESSAGES } from '../../identity/messages';
import { NO_VERIFICATION, sessionsLeftOf, VERIFICATION_MESSAGES, verificationTypeOf } from '../../identity/verification';

export interface StartVerificationDeps extends Pick<ApplicantIdentityDeps, 'store' | 'limit'> {
  stripe: () => Promise<Pick<Stripe, 'identity'>>;
  /** The public site, for Stripe's return to the identity page (no token in it). */
  siteUrl: string;
}

/** Verification requests per application per hour (each may call Stripe; the sessions themselves are capped in all). */
const VERIFICATION_REQUESTS_PER_APPLICATION_PER_HOUR = 20;

export async function startVerification(deps: StartVerificationDeps, token: string, ip: string): Promise<VerificationResponse> {
  const app = await openByToken(deps, token, ip);
  await deps.limit([
    { name: 'founding-identity.verification', subject: app.id, limit: VERIFICATION_REQUESTS_PER_APPLICATION_PER_HOUR, windowSeconds: 3600, message: VERIFICATION_MESSAGES.tooMany },
  ]);
  if (CLOSED.has(app.status)) throw new ConflictError(IDENTITY_MESSAGES.closed);
  if (!app.identity?.consent) throw new ConflictError(VERIFICATION_MESSAGES.consentFirst);
  const verification = app.verification ?? NO_VERIFICATION;
  if (verification.state === 'verified' || verification.state === 'under-18') throw new ConflictError(VERIFICATION_MESSAGES.alreadyVerified);
  const stripe = await deps.stripe();

  // The newest session, while Stripe still takes input on it, is the one to continue.
  const newest = verification.attempts.at(-1);
  if (newest) {
    const open = await stripe.identity.verificationSessions.retrieve(newest.sessionId);
    if (open.status === 'requires_input' && open.url) return { url: open.url };
    if (open.status === 'processing') throw new ConflictError(VERIFICATION_MESSAGES.processing);
    if (open.status === 'verified') throw new ConflictError(VERIFICATION_MESSAGES.processing);
  }
  if (sessionsLeftOf(verification) === 0) throw new ConflictError(VERIFICATION_MESSAGES.usedUp);

  const type = verificationTypeOf(app);
  const count = verification.attempts.length;
  // The same key for the same attempt: two requests at once get the one session from Stripe.
  const session = await stripe.identity.verificationSessions.create(
    {
      type: 'document',
      options: { document: { require_matching_selfie: type === 'document-and-selfie' } },
      metadata: { applicationId: app.id },
      client_reference_id: app.id,
      return_url: `${deps.siteUrl}/founding/identity`,
    },
    { idempotencyKey: `founding-verification:${app.id}:${count + 1}` },
  );
  if (!session.url) throw new Error(`Stripe answered VerificationSession ${session.id} without a url`);
  const at = deps.store.now().toISOString();
  const next = {
    ...verification,
    state: 'started' as const,
    type,
    attempts: [...verification.attempts, { sessionId: session.id, createdAt: at, status: 'requires_input' as const, updatedAt: at }],
  };
  if (!(await deps.store.recordVerificationSession(app.id, session.id, next, app.verificationRevision ?? 0))) {
    // The other request of the same moment recorded this very session: answer it too.
    const now = await deps.store.getApplication(app.id);
    if (now.verification?.attempts.some((a) => a.sessionId === session.id)) return { url: session.url };
    throw new ConflictError(VERIFICATION_MESSAGES.busy);
  }
  await deps.store.addHistory(app.id, 'ID verification opened', { note: `Stripe Identity session ${session.id} (${type}), ${sessionsLeftOf(next)} left` });
  log.info('verification session opened', { applicationId: app.id, sessionId: session.id, type, attempt: count + 1 });
  return { url: session.url };
}
