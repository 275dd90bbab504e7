import type { ContactMessageReceivedV1 } from '../../../../events/contact';
import { contactAcknowledgementEmail, contactTeamEmail } from '../../emails';
import type { Email } from '../../../shared/email';
import { ONE_DAY, type Once } from '../../../shared/idempotency';
import { log } from '../../../shared/log';
import type { DeliveryKind, MessageStore } from '../../store';

export interface NotifyDeps {
  store: MessageStore;
  /** Where the team reads contact messages (the stage's contactEmail). */
  teamEmail: string;
  siteUrl: string;
  send: (to: string, email: Email, replyTo?: string) => Promise<unknown>;
  once: Once;
}

type SendOutcome = 'sent' | 'skipped';
export interface NotifyOutcome {
  team: SendOutcome;
  acknowledgement: SendOutcome;
}

/**
 * Emails the team the message (Reply-To the sender) and sends the sender an acknowledgement,
 * each exactly once however often the event is delivered: each send is idempotent on the
 * message and the kind of email for a week (longer than the rule retries a delivery). A failed
 * send is recorded on the message and rethrown so the delivery is retried; the retry skips
 * whichever email already went out.
 */
export async function notifyContact(deps: NotifyDeps, detail: ContactMessageReceivedV1): Promise<NotifyOutcome> {
  const message = await deps.store.getMessage(detail.messageId);
  if (!message) {
    // Removed (its event could not be announced, or the sender asked for deletion): nothing to send.
    log.warn('contact message not found; nothing sent', { messageId: detail.messageId });
    return { team: 'skipped', acknowledgement: 'skipped' };
  }
  const team = await sendOnce(deps, message.id, 'team', () => deps.send(deps.teamEmail, contactTeamEmail(message, deps.siteUrl), message.email));
  const acknowledgement = await sendOnce(deps, message.id, 'acknowledgement', () =>
    deps.send(message.email, contactAcknowledgementEmail(message, deps.siteUrl)),
  );
  return { team, acknowledgement };
}

function sendOnce(deps: NotifyDeps, messageId: string, kind: DeliveryKind, send: () => Promise<unknown>): Promise<SendOutcome> {
  return deps.once(
    { name: 'contact-notify', key: '[messageId, kind]', expiresAfterSeconds: 7 * ONE_DAY, onReplay: () => 'skipped' as const },
    { messageId, kind },
    async () => {
      await deps.store.markDelivery(messageId, kind, 'sending');
      try {
        await send();
      } catch (err) {
        log.error('contact email failed', err, { messageId, kind });
        await deps.store.markDelivery(messageId, kind, 'failed', String((err as Error).message)).catch(() => undefined);
        throw err;
      }
      await deps.store.markDelivery(messageId, kind, 'sent');
      return 'sent' as const;
    },
  );
}
