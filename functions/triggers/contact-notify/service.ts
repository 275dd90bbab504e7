import { DynamoDBDocumentClient, GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { ContactMessageReceivedV1 } from '../../../events/contact';
import { contactAcknowledgementEmail, contactTeamEmail, type ContactMessage } from '../../integrations/email/contact';
import type { Email } from '../../integrations/email/render';
import { messageKey } from '../../shared/contact-keys';
import { log } from '../../shared/log';

export interface NotifyDeps {
  doc: DynamoDBDocumentClient;
  tableName: string;
  /** Where the team reads contact messages (the stage's contactEmail). */
  teamEmail: string;
  siteUrl: string;
  send: (to: string, email: Email, replyTo?: string) => Promise<unknown>;
  now?: () => Date;
  /** A send claimed longer ago than this is presumed lost and may be retried. */
  claimTimeoutMs?: number;
}

export type SendOutcome = 'sent' | 'skipped';
export interface NotifyOutcome {
  team: SendOutcome;
  acknowledgement: SendOutcome;
}

/** Each email's delivery is tracked on the message under its own attribute names. */
const TRACKING = {
  team: { state: 'teamEmail', claim: 'teamEmailClaim', sentAt: 'teamEmailSentAt', error: 'teamEmailError' },
  acknowledgement: { state: 'ackEmail', claim: 'ackEmailClaim', sentAt: 'ackEmailSentAt', error: 'ackEmailError' },
} as const;
type Kind = keyof typeof TRACKING;

/**
 * Emails the team the message (Reply-To the sender) and sends the sender an acknowledgement,
 * each exactly once however often the event is delivered: every send is claimed with a
 * conditional write first and marked sent after. A failed send is recorded on the message and
 * rethrown so the delivery is retried; the retry skips whichever email already went out.
 */
export async function notifyContact(deps: NotifyDeps, detail: ContactMessageReceivedV1): Promise<NotifyOutcome> {
  const key = { pk: messageKey(detail.messageId) };
  const out = await deps.doc.send(new GetCommand({ TableName: deps.tableName, Key: key, ConsistentRead: true }));
  const message = out.Item as ContactMessage | undefined;
  if (!message) {
    // Removed (its event could not be announced, or the sender asked for deletion): nothing to send.
    log.warn('contact message not found; nothing sent', { messageId: detail.messageId });
    return { team: 'skipped', acknowledgement: 'skipped' };
  }
  const team = await sendOnce(deps, key, 'team', () => deps.send(deps.teamEmail, contactTeamEmail(message, deps.siteUrl), message.email));
  const acknowledgement = await sendOnce(deps, key, 'acknowledgement', () =>
    deps.send(message.email, contactAcknowledgementEmail(message, deps.siteUrl)),
  );
  return { team, acknowledgement };
}

async function sendOnce(deps: NotifyDeps, key: { pk: string }, kind: Kind, send: () => Promise<unknown>): Promise<SendOutcome> {
  const f = TRACKING[kind];
  const now = (deps.now ?? (() => new Date()))();
  const claim = now.toISOString();
  const staleBefore = new Date(now.getTime() - (deps.claimTimeoutMs ?? 5 * 60_000)).toISOString();
  const names = { '#state': f.state, '#claim': f.claim, '#sentAt': f.sentAt, '#error': f.error };
  try {
    await deps.doc.send(
      new UpdateCommand({
        TableName: deps.tableName,
        Key: key,
        UpdateExpression: 'SET #claim = :claim, #state = :sending',
        ConditionExpression: 'attribute_exists(pk) AND attribute_not_exists(#sentAt) AND (attribute_not_exists(#claim) OR #claim < :stale)',
        ExpressionAttributeNames: { '#state': f.state, '#claim': f.claim, '#sentAt': f.sentAt },
        ExpressionAttributeValues: { ':claim': claim, ':sending': 'sending', ':stale': staleBefore },
      }),
    );
  } catch (err) {
    if ((err as Error).name === 'ConditionalCheckFailedException') {
      log.info('contact email already sent or in progress', { pk: key.pk, kind });
      return 'skipped';
    }
    throw err;
  }

  try {
    await send();
  } catch (err) {
    log.error('contact email failed', err, { pk: key.pk, kind });
    await deps.doc
      .send(
        new UpdateCommand({
          TableName: deps.tableName,
          Key: key,
          UpdateExpression: 'SET #state = :failed, #error = :error REMOVE #claim',
          ConditionExpression: '#claim = :claim',
          ExpressionAttributeNames: { '#state': f.state, '#claim': f.claim, '#error': f.error },
          ExpressionAttributeValues: { ':failed': 'failed', ':error': String((err as Error).message).slice(0, 500), ':claim': claim },
        }),
      )
      .catch(() => undefined);
    throw err;
  }

  await deps.doc.send(
    new UpdateCommand({
      TableName: deps.tableName,
      Key: key,
      UpdateExpression: 'SET #state = :sent, #sentAt = :at REMOVE #claim, #error',
      ExpressionAttributeNames: names,
      ExpressionAttributeValues: { ':sent': 'sent', ':at': new Date().toISOString() },
    }),
  );
  return 'sent';
}
