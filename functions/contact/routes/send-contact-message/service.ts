import { randomUUID } from 'node:crypto';
import {
  CONTACT_IP_DAILY_MESSAGE,
  CONTACT_IP_HOURLY_MESSAGE,
  CONTACT_MESSAGES_PER_IP_PER_DAY,
  CONTACT_MESSAGES_PER_IP_PER_HOUR,
} from '../../../../events/contact-values';
import {
  CONTACT_DAILY_LIMIT,
  CONTACT_LIMIT_MESSAGE,
  CONTACT_MESSAGE_RECEIVED,
  type ContactMessageReceivedV1,
  type ContactRequest,
  type ContactResponse,
} from '../../../../events/contact';
import { TooManyRequestsError } from '../../../shared/errors';
import { ONE_DAY, ONE_HOUR, withIdempotencyKey, type PublicFormDeps } from '../../../shared/idempotency';
import { log } from '../../../shared/log';
import type { MessageStore, StoredMessage } from '../../store';

/** `limit` counts per IP address; the per-sender daily cap is counted with the messages. */
export interface ContactDeps extends PublicFormDeps {
  store: MessageStore;
  newId?: () => string;
}

/**
 * Stores a contact message and announces `Contact.MessageReceived`; the emails follow from
 * the event. 202 means both happened: if the event cannot be put on the bus the message is
 * removed again and the call fails, so the person retries instead of waiting for a reply that
 * the team was never told about. A message not received (not stored, or removed so) gives its
 * count of the sender's day back, so the retry is not refused by the daily cap for it. With an `Idempotency-Key`, a repeat stores nothing more.
 * Every call counts against its IP address's hourly and daily limits first.
 */
export async function receiveMessage(deps: ContactDeps, req: ContactRequest, caller: { ip: string }, idempotencyKey?: string): Promise<ContactResponse> {
  await deps.limit([
    { name: 'contact.ip.hour', subject: caller.ip, limit: CONTACT_MESSAGES_PER_IP_PER_HOUR, windowSeconds: ONE_HOUR, message: CONTACT_IP_HOURLY_MESSAGE },
    { name: 'contact.ip.day', subject: caller.ip, limit: CONTACT_MESSAGES_PER_IP_PER_DAY, windowSeconds: ONE_DAY, message: CONTACT_IP_DAILY_MESSAGE },
  ]);
  return withIdempotencyKey(deps.once, 'contact', idempotencyKey, req, (r) => receive(deps, r));
}

async function receive(deps: ContactDeps, req: ContactRequest): Promise<ContactResponse> {
  const now = (deps.now ?? (() => new Date()))();
  if (!(await deps.store.countAgainstDailyLimit(req.email, now, CONTACT_DAILY_LIMIT))) throw new TooManyRequestsError(CONTACT_LIMIT_MESSAGE);

  const id = (deps.newId ?? randomUUID)();
  const message: StoredMessage = {
    id,
    status: 'new',
    createdAt: now.toISOString(),
    firstName: req.firstName,
    lastName: req.lastName,
    email: req.email,
    subject: req.subject,
    message: req.message,
    page: req.page,
  };
  /** The count of a message that was not received, given back (the answer is the failure either way). */
  const giveBackCount = () =>
    deps.store.releaseDailyCount(req.email, now).catch((e) => log.error("could not give back the sender's daily count", e, { messageId: id }));
  try {
    await deps.store.putMessage(message);
  } catch (err) {
    await giveBackCount();
    throw err;
  }

  const detail: ContactMessageReceivedV1 = { version: 1, messageId: id, page: req.page, receivedAt: message.createdAt };
  try {
    await deps.publish(CONTACT_MESSAGE_RECEIVED, detail);
  } catch (err) {
    log.error('could not announce contact message; removing it so the sender can retry', err, { messageId: id });
    await deps.store
      .deleteMessage(id)
      .then(giveBackCount, (e) => log.error('could not remove unannounced contact message', e, { messageId: id }));
    throw err;
  }
  log.info('contact message received', { messageId: id, page: req.page });
  return { received: true };
}
