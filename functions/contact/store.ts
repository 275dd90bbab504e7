import {
  DeleteCommand,
  GetCommand,
  PutCommand,
  ScanCommand,
  UpdateCommand,
  type DynamoDBDocumentClient,
} from '@aws-sdk/lib-dynamodb';
import { deleteItems, scanItems } from '../shared/erasure';
import type { AdminMessage } from '../../events/admin';
import { isConditionFailure } from '../shared/errors';

/*
 * The messages table: one item per contact message (`MESSAGE#<id>`), and one counter per
 * sender address per UTC day (`LIMIT#<email>#<day>`) that expires two days after its day.
 */
const messageKey = (id: string) => `MESSAGE#${id}`;
const senderDayKey = (email: string, day: string) => `LIMIT#${email}#${day}`;
const MESSAGE_PREFIX = 'MESSAGE#';

/** A contact message as it is stored; the console's triage and delivery fields come later. */
export type StoredMessage = Omit<AdminMessage, 'handledAt' | 'handledBy' | 'teamEmail' | 'ackEmail'>;

/** The two emails a message causes, each tracked on the message under its own attributes. */
export type DeliveryKind = 'team' | 'acknowledgement';
export type DeliveryState = 'sending' | 'sent' | 'failed';
const TRACKING = {
  team: { state: 'teamEmail', sentAt: 'teamEmailSentAt', error: 'teamEmailError' },
  acknowledgement: { state: 'ackEmail', sentAt: 'ackEmailSentAt', error: 'ackEmailError' },
} as const;

/** Message ids are UUIDs (send-contact-message); anything else cannot name a message. */
export const MESSAGE_ID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export type MessageStore = ReturnType<typeof messageStore>;

export function messageStore(doc: DynamoDBDocumentClient, tableName: string) {
  const scanMessages = async function* (extra: { filter?: string; values?: Record<string, unknown>; count?: boolean } = {}) {
    let start: Record<string, unknown> | undefined;
    do {
      const page = await doc.send(
        new ScanCommand({
          TableName: tableName,
          FilterExpression: `begins_with(pk, :message)${extra.filter ? ` AND (${extra.filter})` : ''}`,
          ExpressionAttributeValues: { ':message': MESSAGE_PREFIX, ...extra.values },
          Select: extra.count ? 'COUNT' : undefined,
          ExclusiveStartKey: start,
        }),
      );
      yield page;
      start = page.LastEvaluatedKey;
    } while (start);
  };

  return {
    /**
     * Counts a message against its sender's daily cap with one conditional write (never a
     * count followed by an insert); false when the day's cap is used up.
     */
    async countAgainstDailyLimit(email: string, now: Date, limit: number): Promise<boolean> {
      const day = now.toISOString().slice(0, 10);
      const expiresAt = Math.floor(Date.parse(`${day}T00:00:00.000Z`) / 1000) + 3 * 24 * 3600;
      try {
        await doc.send(
          new UpdateCommand({
            TableName: tableName,
            Key: { pk: senderDayKey(email, day) },
            UpdateExpression: 'SET #count = if_not_exists(#count, :zero) + :one, expiresAt = :expires',
            ConditionExpression: 'attribute_not_exists(#count) OR #count < :limit',
            ExpressionAttributeNames: { '#count': 'count' },
            ExpressionAttributeValues: { ':zero': 0, ':one': 1, ':limit': limit, ':expires': expiresAt },
          }),
        );
        return true;
      } catch (err) {
        if (isConditionFailure(err)) return false;
        throw err;
      }
    },

    /**
     * Gives back one count of the sender's day, for a message that was counted but not received
     * (it could not be stored or announced), so the sender's retry is not refused for it.
     */
    async releaseDailyCount(email: string, now: Date): Promise<void> {
      const day = now.toISOString().slice(0, 10);
      try {
        await doc.send(
          new UpdateCommand({
            TableName: tableName,
            Key: { pk: senderDayKey(email, day) },
            UpdateExpression: 'SET #count = #count - :one',
            ConditionExpression: '#count > :zero',
            ExpressionAttributeNames: { '#count': 'count' },
            ExpressionAttributeValues: { ':zero': 0, ':one': 1 },
          }),
        );
      } catch (err) {
        if (!isConditionFailure(err)) throw err;
      }
    },

    async putMessage(message: StoredMessage): Promise<void> {
      await doc.send(
        new PutCommand({ TableName: tableName, Item: { pk: messageKey(message.id), ...message }, ConditionExpression: 'attribute_not_exists(pk)' }),
      );
    },

    async deleteMessage(id: string): Promise<void> {
      await doc.send(new DeleteCommand({ TableName: tableName, Key: { pk: messageKey(id) } }));
    },

    async getMessage(id: string): Promise<AdminMessage | undefined> {
      const out = await doc.send(new GetCommand({ TableName: tableName, Key: { pk: messageKey(id) }, ConsistentRead: true }));
      return out.Item ? adminMessageOf(out.Item) : undefined;
    },

    /** Records where one of a message's emails stands (a failure with its error, a send with its time). */
    async markDelivery(id: string, kind: DeliveryKind, state: DeliveryState, error?: string): Promise<void> {
      const f = TRACKING[kind];
      const change: Record<DeliveryState, { update: string; names: Record<string, string>; values: Record<string, unknown> }> = {
        sending: { update: 'SET #state = :state', names: {}, values: {} },
        sent: { update: 'SET #state = :state, #sentAt = :at REMOVE #error', names: { '#sentAt': f.sentAt, '#error': f.error }, values: { ':at': new Date().toISOString() } },
        failed: { update: 'SET #state = :state, #error = :error', names: { '#error': f.error }, values: { ':error': (error ?? '').slice(0, 500) } },
      };
      const { update, names, values } = change[state];
      await doc.send(
        new UpdateCommand({
          TableName: tableName,
          Key: { pk: messageKey(id) },
          UpdateExpression: update,
          ExpressionAttributeNames: { '#state': f.state, ...names },
          ExpressionAttributeValues: { ':state': state, ...values },
        }),
      );
    },

    /** Marks a message handled (recording who and when) or new again; undefined when there is no such message. */
    async setHandled(id: string, handled: boolean, by: string, at: string): Promise<AdminMessage | undefined> {
      try {
        const out = await doc.send(
          new UpdateCommand({
            TableName: tableName,
            Key: { pk: messageKey(id) },
            UpdateExpression: handled ? 'SET #status = :handled, handledAt = :at, handledBy = :by' : 'SET #status = :new REMOVE handledAt, handledBy',
            ConditionExpression: 'attribute_exists(pk)',
            ExpressionAttributeNames: { '#status': 'status' },
            ExpressionAttributeValues: handled ? { ':handled': 'handled', ':at': at, ':by': by } : { ':new': 'new' },
            ReturnValues: 'ALL_NEW',
          }),
        );
        return adminMessageOf(out.Attributes ?? {});
      } catch (err) {
        if (isConditionFailure(err)) return undefined;
        throw err;
      }
    },

    /** Every message (the per-sender counters are skipped). */
    async listAll(): Promise<AdminMessage[]> {
      const all: AdminMessage[] = [];
      for await (const page of scanMessages()) for (const item of page.Items ?? []) all.push(adminMessageOf(item));
      return all;
    },

    /** How many messages have an email that failed. */
    async countFailedEmails(): Promise<number> {
      let count = 0;
      for await (const page of scanMessages({ filter: 'teamEmail = :failed OR ackEmail = :failed', values: { ':failed': 'failed' }, count: true })) {
        count += page.Count ?? 0;
      }
      return count;
    },
  };
}

/** A stored contact message as the console shows it (delivery bookkeeping left out). */
function adminMessageOf(item: Record<string, unknown>): AdminMessage {
  const str = (k: string) => (typeof item[k] === 'string' ? (item[k] as string) : undefined);
  return {
    id: String(item.id),
    status: item.status === 'handled' ? 'handled' : 'new',
    createdAt: str('createdAt') ?? '',
    firstName: str('firstName') ?? '',
    lastName: str('lastName') ?? '',
    email: str('email') ?? '',
    subject: str('subject') ?? '',
    message: str('message') ?? '',
    page: str('page'),
    handledAt: str('handledAt'),
    handledBy: str('handledBy'),
    teamEmail: str('teamEmail'),
    ackEmail: str('ackEmail'),
  };
}

/**
 * Erasure (decision 019): removes the contact messages sent from the address and its daily
 * counters. Returns how many messages went.
 */
export async function eraseMessagesFrom(doc: DynamoDBDocumentClient, tableName: string, email: string): Promise<number> {
  const items = await scanItems(doc, tableName, {
    expression: 'email = :e OR begins_with(pk, :limit)',
    values: { ':e': email, ':limit': `LIMIT#${email}#` },
  });
  await deleteItems(doc, tableName, ['pk'], items);
  return items.filter((i) => String(i.pk).startsWith(MESSAGE_PREFIX)).length;
}
