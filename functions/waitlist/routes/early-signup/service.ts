import { randomBytes } from 'node:crypto';
import { WAITLIST_FULL_MESSAGE, type EarlySignupRequest, type EarlySignupResponse } from '../../../../events/waitlist';
import {
  WAITLIST_ADDRESS_MESSAGE,
  WAITLIST_CONFIRMATION_HOURS,
  WAITLIST_EMAILS_PER_ADDRESS_PER_DAY,
  WAITLIST_HONEYPOT_FIELD,
  WAITLIST_IP_DAILY_MESSAGE,
  WAITLIST_IP_HOURLY_MESSAGE,
  WAITLIST_SIGNUPS_PER_IP_PER_DAY,
  WAITLIST_SIGNUPS_PER_IP_PER_HOUR,
} from '../../../../events/waitlist-values';
import { waitlistConfirmationEmail, waitlistConfirmationUrl } from '../../emails/confirm';
import type { Email } from '../../../shared/email-layout';
import { ConflictError } from '../../../shared/errors';
import { ONE_DAY, ONE_HOUR, withIdempotencyKey, type Once } from '../../../shared/idempotency';
import { log } from '../../../shared/log';
import type { RateLimiter } from '../../../shared/rate-limit';
import type { WaitlistStore } from '../../store';
import { hashToken, type Caller } from '../../confirmation';

export interface WaitlistDeps {
  store: WaitlistStore;
  capacity: number;
  siteUrl: string;
  send: (to: string, email: Email) => Promise<unknown>;
  limit: RateLimiter;
  once: Once;
  now?: () => Date;
  /** A new confirmation token (tests fix it). */
  newToken?: () => string;
}

const IN_PROGRESS = 'A signup for this email is already in progress. Please try again in a moment.';
/**
 * How long a finished request is replayed to a repeat of its address. Short: the per-address
 * limit caps the emails, and a person asking again a minute later should get a new link.
 */
const REPEAT_WINDOW_SECONDS = 1;

/** The one answer to every accepted signup (EarlySignupResponse). */
const ACCEPTED: EarlySignupResponse = { success: true, confirmationSent: true };

/** A confirmation token: 256 random bits, base64url (43 characters). */
const newConfirmationToken = (): string => randomBytes(32).toString('base64url');

/**
 * Asks to join the waitlist (docs/product.md#waitlist-abuse). No place is taken here: the
 * address gets a confirmation email whose link takes the place (confirm-waitlist). New,
 * waiting and confirmed addresses get the same answer and the same email, so the answer tells
 * a stranger nothing; the per-address limit caps the emails, the per-IP limits the attempts,
 * and a filled honeypot is answered alike with nothing stored or sent.
 *
 * The request runs once per email at a time (the email is its idempotency key; a second one
 * while it runs is refused with 409, so a double submit sends one email). An
 * `Idempotency-Key` replays the first answer as is.
 */
export async function signUp(deps: WaitlistDeps, req: EarlySignupRequest, caller: Caller, idempotencyKey?: string): Promise<EarlySignupResponse> {
  await deps.limit([
    { name: 'early-signup.ip.hour', subject: caller.ip, limit: WAITLIST_SIGNUPS_PER_IP_PER_HOUR, windowSeconds: ONE_HOUR, message: WAITLIST_IP_HOURLY_MESSAGE },
    { name: 'early-signup.ip.day', subject: caller.ip, limit: WAITLIST_SIGNUPS_PER_IP_PER_DAY, windowSeconds: ONE_DAY, message: WAITLIST_IP_DAILY_MESSAGE },
  ]);
  if (req[WAITLIST_HONEYPOT_FIELD]?.trim()) {
    log.info('waitlist honeypot filled; nothing stored or sent');
    return ACCEPTED;
  }
  return withIdempotencyKey(deps.once, 'early-signup', idempotencyKey, req, (request) =>
    deps.once(
      { name: 'early-signup.email', key: 'email', expiresAfterSeconds: REPEAT_WINDOW_SECONDS, inProgressMessage: IN_PROGRESS },
      request,
      (r) => requestConfirmation(deps, r),
    ),
  );
}

async function requestConfirmation(deps: WaitlistDeps, req: EarlySignupRequest): Promise<EarlySignupResponse> {
  const now = (deps.now ?? (() => new Date()))();
  // Full is full for everyone: a confirmed signup keeps its place, and nobody learns who holds one.
  if ((await deps.store.count()) >= deps.capacity) throw new ConflictError(WAITLIST_FULL_MESSAGE);

  await deps.limit([
    { name: 'early-signup.address.day', subject: req.email, limit: WAITLIST_EMAILS_PER_ADDRESS_PER_DAY, windowSeconds: ONE_DAY, message: WAITLIST_ADDRESS_MESSAGE },
  ]);

  const expiresAt = Math.floor(now.getTime() / 1000) + WAITLIST_CONFIRMATION_HOURS * ONE_HOUR;
  const active = await deps.store.getSignup(req.email);
  if (!active) {
    // false means it was confirmed meanwhile: the link then shows the place.
    await deps.store.putPending({
      email: req.email,
      firstName: req.firstName || undefined,
      signupType: req.signupType,
      newsletter: req.newsletter ?? true,
      requestedAt: now.toISOString(),
      expiresAt,
    });
  }
  const token = (deps.newToken ?? newConfirmationToken)();
  const tokenHash = hashToken(token);
  await deps.store.putToken(tokenHash, req.email, expiresAt);
  await deps.once({ name: 'waitlist-confirmation-email', key: 'tokenHash', expiresAfterSeconds: ONE_DAY }, { tokenHash }, async () => {
    await deps.send(req.email, waitlistConfirmationEmail({ firstName: active?.firstName ?? (req.firstName || undefined), link: waitlistConfirmationUrl(deps.siteUrl, token) }));
    return true;
  });
  return ACCEPTED;
}
