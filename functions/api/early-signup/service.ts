import {
  WAITLIST_FULL_MESSAGE,
  WAITLIST_SIGNED_UP,
  type EarlySignupRequest,
  type EarlySignupResponse,
  type WaitlistSignedUpV1,
} from '../../../events/waitlist';
import { ConflictError } from '../../shared/errors';
import { ONE_HOUR, withIdempotencyKey, type Once } from '../../shared/idempotency';
import { log } from '../../shared/log';
import type { Signup, WaitlistStore } from '../../stores/waitlist';

export interface WaitlistDeps {
  store: WaitlistStore;
  capacity: number;
  publish: (detailType: string, detail: object) => Promise<void>;
  once: Once;
  now?: () => Date;
}

const IN_PROGRESS = 'A signup for this email is already in progress. Please try again in a moment.';

/**
 * Adds an email to the waitlist, at most `capacity` distinct emails ever.
 *
 * The signup runs once per email at a time (the email is its idempotency key; a second
 * attempt while one runs is refused with 409, and a crashed one is taken over when its
 * invocation's time is up). Inside: a known email answers its place; otherwise a place is
 * taken with one conditional write on the counter, the signup is written, and
 * `Waitlist.SignedUp` is announced. If announcing fails the signup fails too, and the retry
 * finds the signup and announces it. An `Idempotency-Key` replays the first answer as is.
 */
export async function signUp(deps: WaitlistDeps, req: EarlySignupRequest, idempotencyKey?: string): Promise<EarlySignupResponse> {
  return withIdempotencyKey(deps.once, 'early-signup', idempotencyKey, req, (request) =>
    deps.once(
      { name: 'early-signup.email', key: 'email', expiresAfterSeconds: ONE_HOUR, onReplay: asRepeat, inProgressMessage: IN_PROGRESS },
      request,
      (r) => join(deps, r),
    ),
  );
}

const asRepeat = (answer: EarlySignupResponse): EarlySignupResponse => ({ ...answer, alreadySignedUp: true });

async function join(deps: WaitlistDeps, req: EarlySignupRequest): Promise<EarlySignupResponse> {
  const existing = await deps.store.getSignup(req.email);
  if (existing) {
    if (existing.welcome === 'event-failed') await announce(deps, existing);
    return { success: true, position: existing.position, alreadySignedUp: true };
  }

  const position = await deps.store.takePlace(deps.capacity);
  if (position === undefined) throw new ConflictError(WAITLIST_FULL_MESSAGE);

  const signup: Signup = {
    email: req.email,
    position,
    signedUpAt: (deps.now ?? (() => new Date()))().toISOString(),
    firstName: req.firstName || undefined,
    signupType: req.signupType,
    newsletter: req.newsletter ?? true,
    welcome: 'queued',
  };
  await deps.store.putSignup(signup);
  await announce(deps, signup);
  return { success: true, position, alreadySignedUp: false };
}

async function announce(deps: WaitlistDeps, signup: Signup): Promise<void> {
  const detail: WaitlistSignedUpV1 = {
    version: 1,
    email: signup.email,
    firstName: signup.firstName,
    position: signup.position,
    signupType: signup.signupType,
    newsletter: signup.newsletter,
    signedUpAt: signup.signedUpAt,
  };
  try {
    await deps.publish(WAITLIST_SIGNED_UP, detail);
  } catch (err) {
    // The place is kept; the retry of this signup announces it.
    log.error('could not announce waitlist signup', err, { position: signup.position });
    await deps.store.markWelcome(signup.email, 'event-failed');
    throw err;
  }
}
