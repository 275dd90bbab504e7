import type { WaitlistSignedUp } from '../../../../events/waitlist';
import type { Email } from '../../../shared/email-layout';
import { waitlistWelcomeEmail } from '../../emails/welcome';
import { ONE_DAY, type Once } from '../../../shared/idempotency';
import { log } from '../../../shared/log';
import type { Signup, WaitlistStore } from '../../store';

export interface WelcomeDeps {
  store: WaitlistStore;
  siteUrl: string;
  send: (to: string, email: Email) => Promise<unknown>;
  once: Once;
}

export type WelcomeOutcome = 'sent' | 'skipped';

/**
 * Sends the welcome email once per signup however often the event is delivered: the send is
 * idempotent on the signup's email for a week (longer than the rule retries a delivery). The
 * event names the place only (v2); the address and name are read from the waitlist table
 * (v1 events, replayed from the archive, still carry the address). A failed send is recorded on
 * the signup and rethrown, so the delivery is retried and sends.
 */
export async function sendWelcome(deps: WelcomeDeps, detail: WaitlistSignedUp): Promise<WelcomeOutcome> {
  const signup = detail.version === 2 ? await deps.store.getSignupAt(detail.position) : await deps.store.getSignup(detail.email);
  if (!signup) {
    log.warn('no signup for this welcome email; nothing sent', { position: detail.position });
    return 'skipped';
  }
  return deps.once(
    { name: 'waitlist-welcome', key: 'email', expiresAfterSeconds: 7 * ONE_DAY, onReplay: () => 'skipped' as const },
    { email: signup.email },
    () => send(deps, signup),
  );
}

async function send(deps: WelcomeDeps, signup: Signup): Promise<WelcomeOutcome> {
  if (!(await deps.store.markWelcome(signup.email, 'sending', { ifExists: true }))) {
    log.warn('no signup for this welcome email; nothing sent', { position: signup.position });
    return 'skipped';
  }
  try {
    await deps.send(signup.email, waitlistWelcomeEmail({ firstName: signup.firstName, position: signup.position, siteUrl: deps.siteUrl }));
  } catch (err) {
    log.error('welcome email failed', err, { position: signup.position });
    await deps.store.markWelcome(signup.email, 'failed', { error: String((err as Error).message) }).catch(() => undefined);
    throw err;
  }
  await recordSent(deps, signup);
  return 'sent';
}

/**
 * Records the email as sent. It went out already: a failure to record it must not fail the
 * delivery, which would be retried and send it again. Tried a few times (each with the SDK's own
 * retries); if it still fails, the signup keeps `sending` and the error is logged.
 */
async function recordSent(deps: WelcomeDeps, signup: Signup): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    try {
      await deps.store.markWelcome(signup.email, 'sent');
      return;
    } catch (err) {
      if (attempt >= 3) {
        log.error('welcome email sent but not recorded as sent', err, { position: signup.position });
        return;
      }
    }
  }
}
