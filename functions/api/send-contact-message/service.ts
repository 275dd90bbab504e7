import { randomUUID } from 'node:crypto';
import {
  CONTACT_DAILY_LIMIT,
  CONTACT_LIMIT_MESSAGE,
  CONTACT_MESSAGE_RECEIVED,
  type ContactMessageReceivedV1,
  type ContactRequest,
  type ContactResponse,
} from '../../../events/contact';
import { TooManyRequestsError } from '../../shared/errors';
import { withIdempotencyKey, type Once } from '../../shared/idempotency';
import { log } from '../../shared/log';
import type { MessageStore, StoredMessage } from '../../stores/messages';

export interface ContactDeps {
  store: MessageStore;
  publish: (detailType: string, detail: object) => Promise<void>;
  once: Once;
  now?: () => Date;
  newId?: () => string;
}

/**
 * Stores a contact message and announces `Contact.MessageReceived`; the emails follow from
 * the event. 202 means both happened: if the event cannot be put on the bus the message is
 * removed again and the call fails, so the person retries instead of waiting for a reply that
 * the team was never told about. With an `Idempotency-Key`, a repeat stores nothing more.
 */
export function receiveMessage(deps: ContactDeps, req: ContactRequest, idempotencyKey?: string): Promise<ContactResponse> {
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
  await deps.store.putMessage(message);

  const detail: ContactMessageReceivedV1 = { version: 1, messageId: id, page: req.page, receivedAt: message.createdAt };
  try {
    await deps.publish(CONTACT_MESSAGE_RECEIVED, detail);
  } catch (err) {
    log.error('could not announce contact message; removing it so the sender can retry', err, { messageId: id });
    await deps.store.deleteMessage(id).catch((e) => log.error('could not remove unannounced contact message', e, { messageId: id }));
    throw err;
  }
  log.info('contact message received', { messageId: id, page: req.page });
  return { received: true };
}
