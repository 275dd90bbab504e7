import { SendEmailCommand, SESv2Client } from '@aws-sdk/client-sesv2';
import { GetCommand, ScanCommand, UpdateCommand, type DynamoDBDocumentClient, type TransactWriteCommandInput } from '@aws-sdk/lib-dynamodb';
import * as z from 'zod';
import { FAILURE_METRICS } from '../../events/metrics';
import { isConditionFailure } from './errors';
import { log } from './log';

/** One rendered email (each wing keeps its templates beside its code, in `emails.ts` or `emails/`). */
export interface Email {
  subject: string;
  text: string;
  html: string;
}

/**
 * The settings of every function that sends email, to extend its configuration with: the
 * address mail comes from, the SES configuration set (bounce and complaint events) and the
 * site the emails link to. The stack sets the three together (`AppFunction.bindEmail`).
 */
export const EmailConfig = z.object({
  SENDER_EMAIL: z.string().min(3),
  SES_CONFIGURATION_SET: z.string().optional(),
  SITE_URL: z.url(),
});
export type EmailConfig = z.infer<typeof EmailConfig>;

/** One client per container, created on first use (here, so only the functions that send email load its SDK: decision 064). */
let ses: SESv2Client | undefined;
const sesClient = () => (ses ??= new SESv2Client({}));

/** Sends one email; `replyTo` makes a reply go to someone else (e.g. the person who wrote to us). Answers SES's message id. */
export type SendEmail = (to: string, email: Email, replyTo?: string) => Promise<string | undefined>;

/** The one way a function sends: from its configuration's sender, through its configuration set. */
export function emailSender(config: EmailConfig): SendEmail {
  return async (to, email, replyTo) => {
    const out = await sesClient().send(
      new SendEmailCommand({
        FromEmailAddress: config.SENDER_EMAIL,
        Destination: { ToAddresses: [to] },
        ReplyToAddresses: replyTo ? [replyTo] : undefined,
        ConfigurationSetName: config.SES_CONFIGURATION_SET || undefined,
        Content: {
          Simple: {
            Subject: { Data: email.subject, Charset: 'UTF-8' },
            Body: { Text: { Data: email.text, Charset: 'UTF-8' }, Html: { Data: email.html, Charset: 'UTF-8' } },
          },
        },
      }),
    );
    return out.MessageId;
  };
}

// ---- The outbox (decision 041) ----
//
// An email that tells of a change (a likeness removed, a contract ended) is written to the outbox
// table in the same DynamoDB transaction as the change itself: a change never commits without its
// email, and an email is never sent for a change that did not commit. A sending run then sends
// what waits there, each item once: it claims the item for a while (so two runs never send it
// both), sends, and marks it sent, dropping the address and the text (the item keeps its id and
// when it was sent, then expires). An item whose sending fails stays for the next run, which
// retries it until it goes; a run that finds items waiting past OUTBOX_OVERDUE_SECONDS counts
// them, and an alarm watches that count.

/** The settings of a function that writes emails to the outbox and sends them. */
export const OutboxConfig = EmailConfig.extend({ OUTBOX_TABLE: z.string().min(1) });
export type OutboxConfig = z.infer<typeof OutboxConfig>;

/** One write of a DynamoDB transaction, as the document client takes it. */
export type TransactionWrite = NonNullable<TransactWriteCommandInput['TransactItems']>[number];

/** How long a sending run holds an item it is sending; past it, another run may take it. */
const CLAIM_SECONDS = 5 * 60;
/** An email still unsent this long after its change is overdue (counted; the alarm fires). */
const OUTBOX_OVERDUE_SECONDS = 60 * 60;
/** A sent item (id and times only) is kept this long, then expires. */
const SENT_KEPT_SECONDS = 30 * 24 * 60 * 60;

/** An email waiting in the outbox. */
export interface OutboxItem {
  id: string;
  recipient: string;
  subject: string;
  bodyText: string;
  bodyHtml: string;
  createdAt: string;
  attempts: number;
}

/** What a sending run did: sent now, failed now (left for the next run), and overdue (still waiting past the deadline). */
export interface OutboxRun {
  sent: number;
  failed: number;
  overdue: number;
}

export interface Outbox {
  /**
   * The outbox item of an email to `to`, as a write to put in the transaction of the change it
   * tells of. `id` names the change (e.g. `likeness-removed#<talent>#<when>`): written once.
   */
  entry(id: string, to: string, email: Email): TransactionWrite;
  /**
   * Sends what waits (only the items `ids` when given, e.g. right after the change committed),
   * each once. A run over the whole outbox also counts the overdue items as the metric the
   * alarm watches. Never throws for an email that could not go: it stays for the next run.
   */
  deliver(ids?: string[]): Promise<OutboxRun>;
}

/** The table's side of the outbox; DynamoDB in functions, a map in tests. */
interface OutboxRecords {
  pending(ids: string[] | undefined): Promise<OutboxItem[]>;
  claim(id: string, now: Date): Promise<boolean>;
  sent(id: string, now: Date, messageId: string | undefined): Promise<void>;
  failed(id: string, now: Date, error: string): Promise<void>;
}

function itemOf(tableName: string, id: string, to: string, email: Email, now: Date): TransactionWrite {
  const item: OutboxItem = { id, recipient: to, subject: email.subject, bodyText: email.text, bodyHtml: email.html, createdAt: now.toISOString(), attempts: 0 };
  return { Put: { TableName: tableName, Item: item, ConditionExpression: 'attribute_not_exists(id)' } };
}

function outboxOver(tableName: string, records: OutboxRecords, send: SendEmail, clock: () => Date): Outbox {
  return {
    entry: (id, to, email) => itemOf(tableName, id, to, email, clock()),
    async deliver(ids) {
      const run: OutboxRun = { sent: 0, failed: 0, overdue: 0 };
      const waiting = (await records.pending(ids)).sort((a, b) => a.createdAt.localeCompare(b.createdAt));
      for (const item of waiting) {
        let sent = false;
        try {
          // Claimed by another run now: that run sends it.
          if (await records.claim(item.id, clock())) {
            const messageId = await send(item.recipient, { subject: item.subject, text: item.bodyText, html: item.bodyHtml });
            sent = true;
            run.sent += 1;
            log.info('outbox email sent', { outboxId: item.id, attempts: item.attempts + 1 });
            await records.sent(item.id, clock(), messageId);
          }
        } catch (err) {
          if (sent) {
            // Sent but not marked: once the claim runs out, a later run may send it again.
            log.error('outbox email sent but not marked sent', err, { outboxId: item.id });
          } else {
            run.failed += 1;
            log.error('outbox email not sent; left for the next run', err, { outboxId: item.id, attempts: item.attempts + 1 });
            await records.failed(item.id, clock(), err instanceof Error ? err.name : typeof err).catch((e: unknown) => log.error('outbox failure not recorded', e, { outboxId: item.id }));
          }
        }
        if (!sent && clock().getTime() - Date.parse(item.createdAt) >= OUTBOX_OVERDUE_SECONDS * 1000) run.overdue += 1;
      }
      if (!ids) log.metric(FAILURE_METRICS.emailsOverdue, { value: run.overdue });
      return run;
    },
  };
}

/**
 * Sends the emails just written with their change, at once. One that cannot go now (or an
 * outbox that cannot be read) is logged and waits for the next sending run: the change has
 * happened, so the caller goes on.
 */
export async function deliverNow(outbox: Pick<Outbox, 'deliver'>, writes: TransactionWrite[]): Promise<void> {
  const ids = writes.map((w) => (w.Put?.Item as { id?: unknown } | undefined)?.id).filter((id): id is string => typeof id === 'string');
  if (ids.length === 0) return;
  try {
    await outbox.deliver(ids);
  } catch (err) {
    log.error('outbox emails not sent now; the next sending run sends them', err, { outboxIds: ids.join(',') });
  }
}

/** The outbox on its DynamoDB table, sending through SES from the function's configuration. */
export function emailOutbox(doc: DynamoDBDocumentClient, config: OutboxConfig, send: SendEmail = emailSender(config), clock: () => Date = () => new Date()): Outbox {
  const TableName = config.OUTBOX_TABLE;
  const records: OutboxRecords = {
    async pending(ids) {
      if (ids) {
        const found = await Promise.all(ids.map(async (id) => (await doc.send(new GetCommand({ TableName, Key: { id }, ConsistentRead: true }))).Item));
        return found.filter((i): i is OutboxItem => !!i && i.sentAt === undefined) as OutboxItem[];
      }
      const items: OutboxItem[] = [];
      let start: Record<string, unknown> | undefined;
      do {
        const page = await doc.send(new ScanCommand({ TableName, ConsistentRead: true, FilterExpression: 'attribute_not_exists(sentAt)', ExclusiveStartKey: start }));
        items.push(...((page.Items ?? []) as OutboxItem[]));
        start = page.LastEvaluatedKey;
      } while (start);
      return items;
    },
    async claim(id, now) {
      try {
        await doc.send(
          new UpdateCommand({
            TableName,
            Key: { id },
            UpdateExpression: 'SET claimedUntil = :until',
            ConditionExpression: 'attribute_exists(id) AND attribute_not_exists(sentAt) AND (attribute_not_exists(claimedUntil) OR claimedUntil < :now)',
            ExpressionAttributeValues: { ':until': new Date(now.getTime() + CLAIM_SECONDS * 1000).toISOString(), ':now': now.toISOString() },
          }),
        );
        return true;
      } catch (err) {
        if (isConditionFailure(err)) return false;
        throw err;
      }
    },
    async sent(id, now, messageId) {
      await doc.send(
        new UpdateCommand({
          TableName,
          Key: { id },
          // The address and the text go once sent: the item keeps only what happened, and when.
          UpdateExpression: 'SET sentAt = :at, expiresAt = :exp, attempts = attempts + :one' + (messageId ? ', messageId = :mid' : '') + ' REMOVE claimedUntil, recipient, subject, bodyText, bodyHtml',
          ExpressionAttributeValues: { ':at': now.toISOString(), ':exp': Math.floor(now.getTime() / 1000) + SENT_KEPT_SECONDS, ':one': 1, ...(messageId ? { ':mid': messageId } : {}) },
        }),
      );
    },
    async failed(id, now, error) {
      await doc.send(
        new UpdateCommand({
          TableName,
          Key: { id },
          UpdateExpression: 'SET attempts = attempts + :one, lastError = :err, lastTriedAt = :at REMOVE claimedUntil',
          ExpressionAttributeValues: { ':one': 1, ':err': error, ':at': now.toISOString() },
        }),
      );
    },
  };
  return outboxOver(TableName, records, send, clock);
}

/**
 * The outbox in memory, for tests: a store fake applies the write it was given with `commit`
 * when its change succeeds (as the transaction would); `items` is what the table would hold.
 */
export function memoryOutbox(send: SendEmail, clock: () => Date = () => new Date()): Outbox & { items: Map<string, OutboxItem & { sentAt?: string; claimedUntil?: string }>; commit(write: TransactionWrite): void } {
  const items = new Map<string, OutboxItem & { sentAt?: string; claimedUntil?: string }>();
  const commit = (write: TransactionWrite) => {
    const item = write.Put?.Item as OutboxItem | undefined;
    if (!item) throw new Error('not an outbox write');
    if (items.has(item.id)) throw Object.assign(new Error('The conditional request failed'), { name: 'ConditionalCheckFailedException' });
    items.set(item.id, structuredClone(item));
  };
  const records: OutboxRecords = {
    async pending(ids) {
      return [...items.values()].filter((i) => !i.sentAt && (!ids || ids.includes(i.id))).map((i) => structuredClone(i));
    },
    async claim(id, now) {
      const i = items.get(id);
      if (!i || i.sentAt || (i.claimedUntil && i.claimedUntil >= now.toISOString())) return false;
      i.claimedUntil = new Date(now.getTime() + CLAIM_SECONDS * 1000).toISOString();
      return true;
    },
    async sent(id, now) {
      const i = items.get(id)!;
      Object.assign(i, { sentAt: now.toISOString(), attempts: i.attempts + 1, claimedUntil: undefined });
    },
    async failed(id) {
      const i = items.get(id)!;
      Object.assign(i, { attempts: i.attempts + 1, claimedUntil: undefined });
    },
  };
  return { ...outboxOver('memory-outbox', records, send, clock), items, commit };
}
