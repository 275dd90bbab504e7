// `POST /webhooks/stripe-identity` (signed; docs/identity.md, "Verified identity"): Stripe
// Identity's `identity.verification_session.*` events, verified on the raw body with this
// endpoint's own signing secret and applied once by their id (functions/shared/stripe-events.ts).
// The event's body is only a pointer: the session is read from Stripe as it stands now and that
// state applied, so events may arrive in any order and a replay changes nothing. A session we did
// not create for an application (not in our index, or naming another application) changes nothing.
import type Stripe from 'stripe';
import { FOUNDING_IDENTITY_CHECK_REQUESTED, type ApplicationDecisionRecord } from '../../../../events/founding';
import { UNDER_18_MESSAGE } from '../../../../events/identity';
import type { HttpEvent, HttpResult } from '../../../shared/http';
import type { Once } from '../../../shared/idempotency';
import { log } from '../../../shared/log';
import { RaceLostError } from '../../../shared/retry';
import type { Bucket } from '../../../shared/s3';
import { receiveStripeDelivery } from '../../../shared/stripe-events';
import { resumeIdentityWait } from '../../identity/resume';
import { redactVerification } from '../../identity/redaction';
import { applySession } from '../../identity/verification';
import { deletePhotos } from '../../photo-deletion';
import { ApplicationNotFoundError, type FoundingStore, type StoredApplication } from '../../store';

export interface IdentityEventDeps {
  stripe: Stripe;
  secret: () => Promise<string>;
  once: Once;
  store: FoundingStore;
  storage: Pick<Bucket, 'list' | 'remove'>;
  /** Resumes a workflow task (SendTaskSuccess); false when the token is spent. */
  resume: (taskToken: string, output: object) => Promise<boolean>;
  /** Publishes an event on the bus (FoundingApplication.IdentityCheckRequested with the session). */
  publish: (detailType: string, detail: object) => Promise<void>;
}

/** Who the history and the decision name for what the verification decided by itself. */
const IDENTITY_CHECK = 'identity check';

/** Photos still being validated: the refusal waits for them (Stripe delivers the event again). */
class PhotosBeingValidatedError extends Error {
  override name = 'PhotosBeingValidated';
}

async function applyIdentityEvent(deps: IdentityEventDeps, event: Stripe.Event): Promise<'applied' | 'ignored'> {
  if (!event.type.startsWith('identity.verification_session.')) return 'ignored';
  const sessionId = (event.data.object as { id?: string }).id;
  const applicationId = sessionId ? await deps.store.applicationOfVerificationSession(sessionId) : undefined;
  if (!sessionId || !applicationId) {
    log.warn('identity event for a session we did not create: ignored', { id: event.id, type: event.type, sessionId });
    return 'ignored';
  }
  // The application first, then Stripe: a write made between them is seen by the conditional write.
  let app: StoredApplication;
  try {
    app = await deps.store.getApplication(applicationId);
  } catch (err) {
    if (err instanceof ApplicationNotFoundError) return 'ignored';
    throw err;
  }
  const session = await deps.stripe.identity.verificationSessions.retrieve(sessionId, { expand: ['verified_outputs', 'verified_outputs.dob', 'last_verification_report'] });
  if (session.metadata?.applicationId !== applicationId) {
    log.warn('identity session names another application (or was redacted): ignored', { id: event.id, sessionId, applicationId });
    return 'ignored';
  }
  const at = new Date().toISOString();
  const change = applySession(app, session, at);
  if (change.changed) {
    if (!(await deps.store.recordVerification(applicationId, app.verificationRevision ?? 0, { verification: change.verification, addedChecks: change.addedChecks }))) {
      throw new RaceLostError(`the verification of ${applicationId} was written meanwhile`);
    }
    const v = change.verification;
    const attempt = v.attempts.find((a) => a.sessionId === sessionId)!;
    const findings = change.newlyVerified
      ? ` · name: ${v.name?.result} (${v.name?.note})${v.age ? ` · age: ${v.age.result} on ${v.age.checkedOn}` : ' · age: no date of birth read'}`
      : attempt.error
        ? ` · ${attempt.error}${attempt.errorReason ? `: ${attempt.errorReason}` : ''}`
        : '';
    await deps.store.addHistory(applicationId, `ID verification ${v.state}`, { note: `Stripe Identity session ${sessionId} ${attempt.status}${findings}` });
    log.info('verification updated', { applicationId, sessionId, state: v.state, status: attempt.status });
    app = { ...app, verification: v, verificationRevision: (app.verificationRevision ?? 0) + 1 };
  }
  const verification = app.verification;
  if (verification?.state === 'under-18') {
    await refuseUnder18(deps, app);
    return 'applied';
  }
  // A verified selfie is matched with the set by the check-faces trigger (it has the face model),
  // until its result is recorded: a delivery that failed after the write asks again.
  if (
    verification?.state === 'verified' &&
    session.status === 'verified' &&
    verification.type === 'document-and-selfie' &&
    app.identity?.faceConsent === 'given' &&
    app.identity.selfie?.sessionId !== sessionId
  ) {
    await deps.publish(FOUNDING_IDENTITY_CHECK_REQUESTED, { version: 1, applicationId, sessionId });
  }
  return change.changed ? 'applied' : 'ignored';
}

/**
 * An ID showing the person under 18 on the day of the check: the application is refused with
 * UNDER_18_MESSAGE, a decision of the identity check's own (while none is recorded); the review
 * workflow is resumed wherever it waits, so it goes on to the rejection email; the photos are
 * deleted now and the verification redacted at Stripe. Each part is safe to repeat: a delivery
 * that failed part way does the rest when Stripe sends it again.
 */
async function refuseUnder18(deps: IdentityEventDeps, app: StoredApplication): Promise<void> {
  let current = app;
  if (!current.decision) {
    if (!current.validatedAt) throw new PhotosBeingValidatedError(`the photos of ${app.id} are being validated: the refusal waits for them`);
    const record: ApplicationDecisionRecord = {
      decision: 'reject',
      note: 'Refused by the identity check: the verified date of birth shows the person under 18 on the day of the check.',
      messageToApplicant: UNDER_18_MESSAGE,
      decidedBy: IDENTITY_CHECK,
      decidedAt: deps.store.now().toISOString(),
    };
    if (!(await deps.store.recordSystemDecision(app.id, record))) {
      current = await deps.store.getApplication(app.id);
      if (!current.decision) throw new RaceLostError(`the application ${app.id} changed while it was refused`);
    } else {
      current = { ...current, decision: record, status: 'rejected' };
      log.warn('application refused: under 18', { applicationId: app.id });
    }
  }
  if (current.decision && current.decision.decidedBy !== IDENTITY_CHECK) {
    // Decided by a reviewer before the ID said under 18 (a session finished late): the console shows
    // the verification's state; the photos still go and Stripe's copy is redacted.
    log.error('an ID verified under 18 after the application was decided', new Error('under 18 after a decision'), { applicationId: app.id, decision: current.decision.decision });
  }
  if (current.decision?.decidedBy === IDENTITY_CHECK) {
    // Waiting for review: its task resumes with the decision. Waiting for the proof of person: that step resumes,
    // and the review step finds the decision. Neither yet: the step that comes finds it.
    if (current.taskToken) {
      await deps.resume(current.taskToken, current.decision);
      await deps.store.clearTaskToken(current.id, current.taskToken);
    }
    await resumeIdentityWait({ store: deps.store, resume: async (token, output) => void (await deps.resume(token, output)) }, current.id, { identity: 'decided' });
  }
  if (!current.photosDeletedAt) await deletePhotos({ store: deps.store, storage: deps.storage }, current.id);
  await redactVerification({ stripe: async () => deps.stripe, store: deps.store }, current);
}

/** Verifies and applies one delivery (functions/shared/stripe-events.ts). */
export const receiveIdentityEvent = (deps: IdentityEventDeps, request: HttpEvent): Promise<HttpResult> =>
  receiveStripeDelivery({ ...deps, name: 'stripe-identity-event', label: 'stripe identity event', apply: (event) => applyIdentityEvent(deps, event) }, request);
