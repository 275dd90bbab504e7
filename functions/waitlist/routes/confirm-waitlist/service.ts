import {
  WAITLIST_FULL_MESSAGE,
  WAITLIST_SIGNED_UP,
  type ConfirmWaitlistRequest,
  type ConfirmWaitlistResponse,
  type WaitlistSignedUpV2,
} from '../../../../events/waitlist';
import { WAITLIST_CONFIRM_IP_MESSAGE, WAITLIST_CONFIRMS_PER_IP_PER_HOUR, WAITLIST_LINK_INVALID_MESSAGE } from '../../../../events/waitlist-values';
import { ConflictError, NotFoundError } from '../../../shared/errors';
import { ONE_DAY, ONE_HOUR, type Once } from '../../../shared/idempotency';
import { log } from '../../../shared/log';
import type { RateLimiter } from '../../../shared/rate-limit';
import type { Signup, WaitlistStore } from '../../store';
import { hashToken, type Caller } from '../../confirmation';

export interface ConfirmDeps {
  store: WaitlistStore;
  capacity: number;
  publish: (detailType: string, detail: object) => Promise<void>;
  limit: RateLimiter;
  once: Once;
  now?: () => Date;
}

const IN_PROGRESS = 'This address is being confirmed already. Please try again in a moment.';

/**
 * Follows a confirmation link (docs/product.md#waitlist-abuse): a waiting signup takes the next
 * place with the conditional counter (the capacity rule is unchanged) and `Waitlist.SignedUp`
 * is announced; an address already on the list is shown its place. The link is used up; the
 * same link posted again within a day (a reload, a double click) replays its answer. Confirms
 * of one address run one at a time, so two links never take two places.
 */
export async function confirm(deps: ConfirmDeps, req: ConfirmWaitlistRequest, caller: Caller): Promise<ConfirmWaitlistResponse> {
  await deps.limit([
    { name: 'confirm-waitlist.ip.hour', subject: caller.ip, limit: WAITLIST_CONFIRMS_PER_IP_PER_HOUR, windowSeconds: ONE_HOUR, message: WAITLIST_CONFIRM_IP_MESSAGE },
  ]);
  return deps.once({ name: 'confirm-waitlist.link', key: 'tokenHash', expiresAfterSeconds: ONE_DAY, inProgressMessage: IN_PROGRESS }, { tokenHash: hashToken(req.token) }, async ({ tokenHash }) => {
    const now = (deps.now ?? (() => new Date()))();
    const email = await deps.store.getToken(tokenHash, now);
    if (!email) throw new NotFoundError(WAITLIST_LINK_INVALID_MESSAGE);
    const answer = await deps.once(
      { name: 'confirm-waitlist.email', key: 'email', expiresAfterSeconds: 60, inProgressMessage: IN_PROGRESS, onReplay: (kept: ConfirmWaitlistResponse) => ({ ...kept, alreadySignedUp: true }) },
      { email },
      () => takePlace(deps, email, now),
    );
    await deps.store.deleteToken(tokenHash);
    return answer;
  });
}

async function takePlace(deps: ConfirmDeps, email: string, now: Date): Promise<ConfirmWaitlistResponse> {
  const existing = await deps.store.getSignup(email);
  if (existing) {
    if (existing.welcome === 'event-failed') await announce(deps, existing);
    return { success: true, position: existing.position, alreadySignedUp: true };
  }
  const pending = await deps.store.getPending(email, now);
  if (!pending) throw new NotFoundError(WAITLIST_LINK_INVALID_MESSAGE);

  const position = await deps.store.takePlace(deps.capacity);
  if (position === undefined) throw new ConflictError(WAITLIST_FULL_MESSAGE);
  await deps.store.putPlace(position, email);
  const signup: Signup = {
    email,
    position,
    signedUpAt: now.toISOString(),
    firstName: pending.firstName,
    signupType: pending.signupType,
    newsletter: pending.newsletter,
    welcome: 'queued',
  };
  await deps.store.putSignup(signup);
  await announce(deps, signup);
  log.info('waitlist place confirmed', { position });
  return { success: true, position, alreadySignedUp: false };
}

async function announce(deps: ConfirmDeps, signup: Signup): Promise<void> {
  const detail: WaitlistSignedUpV2 = { version: 2, position: signup.position, signedUpAt: signup.signedUpAt };
  try {
    await deps.publish(WAITLIST_SIGNED_UP, detail);
  } catch (err) {
    // The place is kept; following the link again announces it.
    log.error('could not announce waitlist signup', err, { position: signup.position });
    await deps.store.markWelcome(signup.email, 'event-failed');
    throw err;
  }
}
