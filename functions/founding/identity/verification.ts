// The verified identity with Stripe Identity (docs/identity.md, "Verified identity"; decision 056):
// what the verification route, the webhook, the applicant's status and the console share. Stripe's
// VerificationSession is read by the server only; what is kept of it is the state, each attempt's
// status and error, the name finding and the age finding: never the date of birth, the document's
// images, type or number.
import type Stripe from 'stripe';
import { MAX_VERIFICATION_SESSIONS, type FailedCheck, type IdentityStatus, type ReviewVerification, type VerificationAttempt, type VerificationState } from '../../../events/identity';
import type { StoredApplication } from '../store';
import { ageFinding, nameFinding } from './findings';

/** What the applicant reads of their verification, by state. */
const VERIFICATION_TEXTS: Record<VerificationState, string> = {
  'not-started': 'Verify your identity with an ID document and a selfie: it takes a few minutes.',
  started: 'Your ID verification is open: continue it where you left off.',
  processing: 'Stripe is checking your ID. This page updates when it is done.',
  verified: 'Your ID is verified.',
  failed: 'Your ID could not be verified. Try again with the document in good light, all four corners in the frame.',
  canceled: 'Your ID verification was canceled. You can start a new one.',
  'under-18': 'Your ID shows that you are under 18: we cannot take your application.',
};

/** The route's refusals (docs/identity.md, "Verified identity"). */
export const VERIFICATION_MESSAGES = {
  consentFirst: 'Sign the consent first: the ID verification comes after it.',
  alreadyVerified: 'Your ID is already verified: there is nothing more to do.',
  processing: 'Stripe is still checking your ID: wait for the result before starting again.',
  usedUp: `You have used the ${MAX_VERIFICATION_SESSIONS} ID verifications an application may open. Contact us and a reviewer will help you finish your application.`,
  busy: 'Another verification was being opened for your application at the same moment. Try again.',
  tooMany: 'Too many ID verification requests for this application in the last hour. Wait a little, then try again.',
} as const;

/** A new application's verification: nothing opened yet. */
export const NO_VERIFICATION: ReviewVerification = { state: 'not-started', attempts: [] };

/** Sessions the application may still open. */
export const sessionsLeftOf = (verification: ReviewVerification | undefined) => Math.max(0, MAX_VERIFICATION_SESSIONS - (verification?.attempts.length ?? 0));

/** The applicant's view: the state, what to do, sessions left. */
export function verificationStatusOf(app: Pick<StoredApplication, 'verification'>): IdentityStatus['verification'] {
  const verification = app.verification ?? NO_VERIFICATION;
  // A failed attempt says what Stripe found, in Stripe's words, before what to do.
  const reason = verification.state === 'failed' ? verification.attempts.at(-1)?.errorReason : undefined;
  const message = reason ? `${reason.replace(/\.?$/, '.')} ${VERIFICATION_TEXTS.failed}` : VERIFICATION_TEXTS[verification.state];
  return { state: verification.state, message, sessionsLeft: sessionsLeftOf(verification) };
}

/** The session's type as we create it: with a matching selfie only under face consent given. */
export const verificationTypeOf = (app: Pick<StoredApplication, 'identity'>): NonNullable<ReviewVerification['type']> =>
  app.identity?.faceConsent === 'given' ? 'document-and-selfie' : 'document';

const STATUSES = new Set<string>(['requires_input', 'processing', 'verified', 'canceled']);

/** One attempt as Stripe says its session stands now. */
function attemptOf(before: VerificationAttempt, session: Stripe.Identity.VerificationSession, at: string): VerificationAttempt {
  const status = (STATUSES.has(session.status) ? session.status : 'requires_input') as VerificationAttempt['status'];
  const error = status === 'requires_input' ? session.last_error?.code ?? undefined : undefined;
  const errorReason = status === 'requires_input' ? session.last_error?.reason ?? undefined : undefined;
  const same = before.status === status && before.error === error && before.errorReason === errorReason;
  return same ? before : { sessionId: before.sessionId, createdAt: before.createdAt, status, ...(error ? { error } : {}), ...(errorReason ? { errorReason } : {}), updatedAt: at };
}

/** The state a session's status gives (before the age finding may turn it into `under-18`). */
function stateOfAttempt(attempt: VerificationAttempt): VerificationState {
  switch (attempt.status) {
    case 'processing':
      return 'processing';
    case 'verified':
      return 'verified';
    case 'canceled':
      return 'canceled';
    default:
      return attempt.error ? 'failed' : 'started';
  }
}

/** Stripe's error for a document whose holder is under the age Stripe verifies (18 where we work). */
const UNDER_SUPPORTED_AGE = 'under_supported_age';

/** Stripe's errors that say the person or the selfie is not who they claim: kept as a failed check. */
const FAILED_CHECK_ERRORS = new Set(['selfie_face_mismatch', 'selfie_manipulated', 'selfie_unverified_other', 'document_unverified_other', UNDER_SUPPORTED_AGE]);

interface VerificationChange {
  verification: ReviewVerification;
  /** The checks this change found failed, to add to the application's. */
  addedChecks?: FailedCheck[];
  /** Whether anything changed (a replay, or an older event read after a newer one, changes nothing). */
  changed: boolean;
  /** This change verified the ID (with the findings now on `verification`). */
  newlyVerified: boolean;
}

/**
 * The application's verification with one session's current state applied: its attempt updated;
 * the state follows the newest attempt, and once verified (or under 18) it stays. On verification
 * the name and age findings are made from Stripe's verified outputs (the date of birth is read,
 * judged and dropped here). A failure that says the person is not who they claim, and a name
 * that does not match, are added to the failed checks once.
 */
export function applySession(app: Pick<StoredApplication, 'firstName' | 'lastName' | 'verification'>, session: Stripe.Identity.VerificationSession, at: string): VerificationChange {
  const before = app.verification ?? NO_VERIFICATION;
  const index = before.attempts.findIndex((a) => a.sessionId === session.id);
  if (index < 0) return { verification: before, changed: false, newlyVerified: false };
  const attempt = attemptOf(before.attempts[index]!, session, at);
  const attempts = before.attempts.map((a, i) => (i === index ? attempt : a));
  let verification: ReviewVerification = { ...before, attempts };
  const failed: FailedCheck[] = [];
  let newlyVerified = false;
  const settled = before.state === 'verified' || before.state === 'under-18';
  if (!settled) {
    const newest = index === attempts.length - 1;
    const state = attempt.status === 'verified' ? 'verified' : newest ? stateOfAttempt(attempt) : before.state;
    verification = { ...verification, state };
    // The day of the check: the report's, else the day the outcome was applied.
    const report = typeof session.last_verification_report === 'object' ? session.last_verification_report : null;
    const checkedOn = new Date((report?.created ?? Date.parse(at) / 1000) * 1000).toISOString().slice(0, 10);
    if (state === 'verified') {
      newlyVerified = true;
      const outputs = session.verified_outputs;
      const name = nameFinding(app, { firstName: outputs?.first_name ?? null, lastName: outputs?.last_name ?? null });
      const age = ageFinding(outputs?.dob, checkedOn);
      verification = { ...verification, state: age?.result === 'under-18' ? 'under-18' : 'verified', verifiedAt: at, name, ...(age ? { age } : {}) };
      if (name.result === 'mismatch') failed.push({ check: 'name-mismatch', at });
    } else if (attempt.error === UNDER_SUPPORTED_AGE) {
      // Stripe verifies no one under the age of majority: it answers `requires_input` with this
      // code instead of a verified date of birth. Its refusal is the age finding.
      verification = { ...verification, state: 'under-18', age: { result: 'under-18', checkedOn } };
    }
  }
  if (attempt !== before.attempts[index] && attempt.error && FAILED_CHECK_ERRORS.has(attempt.error)) failed.push({ check: 'id-not-verified', at });
  const changed = attempt !== before.attempts[index] || verification.state !== before.state;
  return { verification, changed, newlyVerified, ...(failed.length ? { addedChecks: failed } : {}) };
}
