import { DynamoDBDocumentClient, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { WaitlistSignedUpV1 } from '../../../events/waitlist';
import type { Email } from '../../integrations/email/render';
import { waitlistWelcomeEmail } from '../../integrations/email/waitlist-welcome';
import { log } from '../../shared/log';
import { signupKey } from '../../shared/waitlist-keys';

export interface WelcomeDeps {
  doc: DynamoDBDocumentClient;
  tableName: string;
  siteUrl: string;
  send: (to: string, email: Email) => Promise<unknown>;
  now?: () => Date;
  /** A send claimed longer ago than this is presumed lost and may be retried. */
  claimTimeoutMs?: number;
}

export type WelcomeOutcome = 'sent' | 'skipped';

/**
 * Sends the welcome email once per signup, however often the event is delivered: the send is
 * claimed with a conditional write first and marked sent after. A failed send is recorded on
 * the signup and rethrown so the delivery is retried.
 */
export async function sendWelcome(deps: WelcomeDeps, detail: WaitlistSignedUpV1): Promise<WelcomeOutcome> {
  const now = (deps.now ?? (() => new Date()))();
  const key = { pk: signupKey(detail.email) };
  const claim = now.toISOString();
  const staleBefore = new Date(now.getTime() - (deps.claimTimeoutMs ?? 5 * 60_000)).toISOString();
  try {
    await deps.doc.send(
      new UpdateCommand({
        TableName: deps.tableName,
        Key: key,
        UpdateExpression: 'SET welcomeClaim = :claim, welcome = :sending',
        ConditionExpression:
          'attribute_exists(pk) AND attribute_not_exists(welcomeSentAt) AND (attribute_not_exists(welcomeClaim) OR welcomeClaim < :stale)',
        ExpressionAttributeValues: { ':claim': claim, ':sending': 'sending', ':stale': staleBefore },
      }),
    );
  } catch (err) {
    if ((err as Error).name === 'ConditionalCheckFailedException') {
      log.info('welcome email already sent or in progress', { position: detail.position });
      return 'skipped';
    }
    throw err;
  }

  try {
    await deps.send(detail.email, waitlistWelcomeEmail({ firstName: detail.firstName, position: detail.position, siteUrl: deps.siteUrl }));
  } catch (err) {
    log.error('welcome email failed', err, { position: detail.position });
    await deps.doc.send(
      new UpdateCommand({
        TableName: deps.tableName,
        Key: key,
        UpdateExpression: 'SET welcome = :failed, welcomeError = :error REMOVE welcomeClaim',
        ConditionExpression: 'welcomeClaim = :claim',
        ExpressionAttributeValues: { ':failed': 'failed', ':error': String((err as Error).message).slice(0, 500), ':claim': claim },
      }),
    ).catch(() => undefined);
    throw err;
  }

  await deps.doc.send(
    new UpdateCommand({
      TableName: deps.tableName,
      Key: key,
      UpdateExpression: 'SET welcome = :sent, welcomeSentAt = :at REMOVE welcomeClaim, welcomeError',
      ExpressionAttributeValues: { ':sent': 'sent', ':at': new Date().toISOString() },
    }),
  );
  return 'sent';
}
