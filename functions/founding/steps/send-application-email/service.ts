import { reviewReminderEmail } from '../../emails/application';
import { composeApplicationEmail, type SendApplicationEmailInput } from '../../emails/compose';
import type { Email } from '../../../shared/email-layout';
import { ONE_DAY, type Once } from '../../../shared/idempotency';
import { log } from '../../../shared/log';
import type { FoundingStore } from '../../store';

export interface SendApplicationEmailDeps {
  store: FoundingStore;
  send: (to: string, email: Email) => Promise<unknown>;
  reviewersEmail: string;
  siteUrl: string;
  adminUrl: string;
  once: Once;
}

type SendOutcome = { sent: true; skipped?: true };

/** Far longer than the state machine retries a step; an applicant's email is never sent twice. */
const SENT_EMAIL_KEPT_SECONDS = 90 * ONE_DAY;

/**
 * Sends one of the application's emails. Emails to the applicant go out once however often the
 * step runs (idempotent on the application and the kind); a failed send leaves no record and
 * throws, so the state machine's Retry tries again, and a send still running elsewhere is
 * refused (409) until it ends. Reminders go to the reviewers each time an application has
 * waited another period.
 */
export async function sendApplicationEmail(deps: SendApplicationEmailDeps, input: SendApplicationEmailInput): Promise<SendOutcome> {
  const { applicationId, kind } = input;
  const app = await deps.store.getApplication(applicationId);

  if (kind === 'reminder') {
    const now = deps.store.now();
    const since = app.reviewWaitingSince ?? app.validatedAt ?? app.submittedAt;
    const email = reviewReminderEmail({
      applicationId,
      program: app.program,
      submittedAt: app.submittedAt,
      waitedMs: now.getTime() - Date.parse(since),
      adminUrl: deps.adminUrl,
    });
    await deps.send(deps.reviewersEmail, email);
    await deps.store.addHistory(applicationId, 'reminder sent', { note: `waiting since ${since}` });
    log.info('review reminder sent', { applicationId });
    return { sent: true };
  }

  const email = await composeApplicationEmail(deps, app, { ...input, kind });
  const outcome = await deps.once<SendApplicationEmailInput, SendOutcome>(
    { name: 'application-email', key: '[applicationId, kind]', expiresAfterSeconds: SENT_EMAIL_KEPT_SECONDS, onReplay: () => ({ sent: true, skipped: true }) },
    { applicationId, kind },
    async () => {
      try {
        await deps.send(app.email, email);
      } catch (err) {
        log.error('application email failed', err, { applicationId, kind });
        throw err;
      }
      return { sent: true };
    },
  );
  if (outcome.skipped) {
    log.info('application email already sent', { applicationId, kind });
    return outcome;
  }
  await deps.store.recordEmailSent(applicationId, kind);
  await deps.store.addHistory(applicationId, 'email sent', { note: kind });
  log.info('application email sent', { applicationId, kind });
  return { sent: true };
}
