import type { WaitlistSignedUpV1 } from '../../../events/waitlist';
import type { Email } from '../../integrations/email/render';
import { waitlistWelcomeEmail } from '../../integrations/email/waitlist-welcome';
import { ONE_DAY, type Once } from '../../shared/idempotency';
import { log } from '../../shared/log';
import type { WaitlistStore } from '../../stores/waitlist';

export interface WelcomeDeps {
  store: WaitlistStore;
  siteUrl: string;
  send: (to: string, email: Email) => Promise<unknown>;
  once: Once;
}

export type WelcomeOutcome = 'sent' | 'skipped';

/**
 * Sends the welcome email once per signup however often the event is delivered: the send is
 * idempotent on the signup's email for a week (longer than the rule retries a delivery). A
 * failed send is recorded on the signup and rethrown, so the delivery is retried and sends.
 */
export function sendWelcome(deps: WelcomeDeps, detail: WaitlistSignedUpV1): Promise<WelcomeOutcome> {
  return deps.once(
    { name: 'waitlist-welcome', key: 'email', expiresAfterSeconds: 7 * ONE_DAY, onReplay: () => 'skipped' as const },
    detail,
    (d) => send(deps, d),
  );
}

async function send(deps: WelcomeDeps, detail: WaitlistSignedUpV1): Promise<WelcomeOutcome> {
  if (!(await deps.store.markWelcome(detail.email, 'sending', { ifExists: true }))) {
    log.warn('no signup for this welcome email; nothing sent', { position: detail.position });
    return 'skipped';
  }
  try {
    await deps.send(detail.email, waitlistWelcomeEmail({ firstName: detail.firstName, position: detail.position, siteUrl: deps.siteUrl }));
  } catch (err) {
    log.error('welcome email failed', err, { position: detail.position });
    await deps.store.markWelcome(detail.email, 'failed', { error: String((err as Error).message) }).catch(() => undefined);
    throw err;
  }
  await deps.store.markWelcome(detail.email, 'sent');
  return 'sent';
}
