import { randomUUID } from 'node:crypto';
import { DeleteCommand, DynamoDBDocumentClient, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import {
  CONTACT_DAILY_LIMIT,
  CONTACT_LIMIT_MESSAGE,
  CONTACT_MESSAGE_RECEIVED,
  type ContactMessageReceivedV1,
  type ContactRequest,
  type ContactResponse,
} from '../../../events/contact';
import { TooManyRequestsError } from '../../shared/errors';
import { log } from '../../shared/log';
import { messageKey, senderDayKey } from '../../shared/contact-keys';

export interface ContactDeps {
  doc: DynamoDBDocumentClient;
  tableName: string;
  publish: (detailType: string, detail: object) => Promise<void>;
  now?: () => Date;
  newId?: () => string;
}

/** A stored contact message. `status` is for the team's triage; the email fields track delivery. */
export interface MessageItem {
  pk: string;
  id: string;
  status: 'new';
  createdAt: string;
  firstName: string;
  lastName: string;
  email: string;
  subject: string;
  message: string;
  page?: string;
}

const isConditionFailure = (err: unknown) => (err as Error)?.name === 'ConditionalCheckFailedException';

/**
 * Stores a contact message and announces `Contact.MessageReceived`; the emails follow from
 * the event. 202 means both happened: if the event cannot be put on the bus the message is
 * removed again and the call fails, so the person retries instead of waiting for a reply that
 * the team was never told about.
 */
export async function receiveMessage(deps: ContactDeps, req: ContactRequest): Promise<ContactResponse> {
  const now = (deps.now ?? (() => new Date()))();
  await countAgainstDailyLimit(deps, req.email, now);

  const id = (deps.newId ?? randomUUID)();
  const item: MessageItem = {
    pk: messageKey(id),
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
  await deps.doc.send(new PutCommand({ TableName: deps.tableName, Item: item, ConditionExpression: 'attribute_not_exists(pk)' }));

  const detail: ContactMessageReceivedV1 = { version: 1, messageId: id, page: req.page, receivedAt: item.createdAt };
  try {
    await deps.publish(CONTACT_MESSAGE_RECEIVED, detail);
  } catch (err) {
    log.error('could not announce contact message; removing it so the sender can retry', err, { messageId: id });
    await deps.doc.send(new DeleteCommand({ TableName: deps.tableName, Key: { pk: item.pk } })).catch((e) =>
      log.error('could not remove unannounced contact message', e, { messageId: id }),
    );
    throw err;
  }
  log.info('contact message received', { messageId: id, page: req.page });
  return { received: true };
}

/**
 * Counts the message against its sender's daily cap with one conditional write (never a count
 * followed by an insert). The counter item expires by TTL two days after its day.
 */
async function countAgainstDailyLimit(deps: ContactDeps, email: string, now: Date): Promise<void> {
  const day = now.toISOString().slice(0, 10);
  const expiresAt = Math.floor(Date.parse(`${day}T00:00:00.000Z`) / 1000) + 3 * 24 * 3600;
  try {
    await deps.doc.send(
      new UpdateCommand({
        TableName: deps.tableName,
        Key: { pk: senderDayKey(email, day) },
        UpdateExpression: 'SET #count = if_not_exists(#count, :zero) + :one, expiresAt = :expires',
        ConditionExpression: 'attribute_not_exists(#count) OR #count < :limit',
        ExpressionAttributeNames: { '#count': 'count' },
        ExpressionAttributeValues: { ':zero': 0, ':one': 1, ':limit': CONTACT_DAILY_LIMIT, ':expires': expiresAt },
      }),
    );
  } catch (err) {
    if (isConditionFailure(err)) throw new TooManyRequestsError(CONTACT_LIMIT_MESSAGE);
    throw err;
  }
}
