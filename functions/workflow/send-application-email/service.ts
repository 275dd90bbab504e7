import { DeleteCommand, GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { ApplicationDecisionRecord } from '../../../events/founding';
import {
  acceptanceEmail,
  applicationConfirmationEmail,
  invalidPhotosEmail,
  rejectionEmail,
  reviewReminderEmail,
} from '../../integrations/email/founding';
import type { Email } from '../../integrations/email/render';
import { foundingKeys } from '../../stores/founding-keys';
import { addHistory, getApplication, isConditionFailure, nowOf, spotNumberOf, updateApplication, type StoreDeps, type StoredApplication } from '../../stores/founding';
import { log } from '../../shared/log';

export const EMAIL_KINDS = ['confirmation', 'invalid', 'acceptance', 'rejection', 'reminder'] as const;
export type EmailKind = (typeof EMAIL_KINDS)[number];

export interface SendApplicationEmailDeps {
  store: StoreDeps;
  send: (to: string, email: Email) => Promise<unknown>;
  reviewersEmail: string;
  siteUrl: string;
  adminUrl: string;
  /** A send claimed longer ago than this is presumed lost and may be retried. */
  claimTimeoutMs?: number;
}

export interface SendApplicationEmailInput {
  applicationId: string;
  kind: EmailKind;
  /** The decision the review task returned (rejection: its note), if the state machine passes it. */
  review?: Partial<ApplicationDecisionRecord>;
}

/**
 * Sends one of the application's emails. Emails to the applicant go out once however often the
 * step runs: each is claimed with a conditional put of `SENT#{kind}` first and marked sent after;
 * a failed send releases the claim and throws, so the state machine's Retry tries again.
 * Reminders go to the reviewers each time an application has waited another period.
 */
export async function sendApplicationEmail(deps: SendApplicationEmailDeps, input: SendApplicationEmailInput): Promise<{ sent: true; skipped?: true }> {
  const { applicationId, kind } = input;
  const app = await getApplication(deps.store, applicationId);

  if (kind === 'reminder') {
    const now = nowOf(deps.store);
    const since = app.reviewWaitingSince ?? app.validatedAt ?? app.submittedAt;
    const email = reviewReminderEmail({
      applicationId,
      program: app.program,
      submittedAt: app.submittedAt,
      waitedMs: now.getTime() - Date.parse(since),
      adminUrl: deps.adminUrl,
    });
    await deps.send(deps.reviewersEmail, email);
    await addHistory(deps.store, applicationId, 'reminder sent', { note: `waiting since ${since}` });
    log.info('review reminder sent', { applicationId });
    return { sent: true };
  }

  const key = foundingKeys.sent(applicationId, kind);
  const now = nowOf(deps.store);
  const claimedAt = now.toISOString();
  const staleBefore = new Date(now.getTime() - (deps.claimTimeoutMs ?? 5 * 60_000)).toISOString();
  try {
    await deps.store.doc.send(
      new PutCommand({
        TableName: deps.store.tableName,
        Item: { ...key, kind, state: 'sending', claimedAt },
        ConditionExpression: 'attribute_not_exists(pk) OR (#state = :sending AND claimedAt < :stale)',
        ExpressionAttributeNames: { '#state': 'state' },
        ExpressionAttributeValues: { ':sending': 'sending', ':stale': staleBefore },
      }),
    );
  } catch (err) {
    if (!isConditionFailure(err)) throw err;
    const existing = await deps.store.doc.send(new GetCommand({ TableName: deps.store.tableName, Key: key, ConsistentRead: true }));
    if (existing.Item?.state === 'sent') {
      log.info('application email already sent', { applicationId, kind });
      return { sent: true, skipped: true };
    }
    // Another run is sending it right now: let the state machine retry and find it sent.
    throw Object.assign(new Error(`the ${kind} email is being sent by another run`), { name: 'EmailInProgress' });
  }

  try {
    await deps.send(app.email, await compose(deps, app, input));
  } catch (err) {
    log.error('application email failed', err, { applicationId, kind });
    await deps.store.doc
      .send(
        new DeleteCommand({
          TableName: deps.store.tableName,
          Key: key,
          ConditionExpression: 'claimedAt = :claimedAt',
          ExpressionAttributeValues: { ':claimedAt': claimedAt },
        }),
      )
      .catch(() => undefined);
    throw err;
  }

  const sentAt = nowOf(deps.store).toISOString();
  await deps.store.doc.send(
    new UpdateCommand({
      TableName: deps.store.tableName,
      Key: key,
      UpdateExpression: 'SET #state = :sent, sentAt = :at',
      ExpressionAttributeNames: { '#state': 'state' },
      ExpressionAttributeValues: { ':sent': 'sent', ':at': sentAt },
    }),
  );
  await updateApplication(deps.store, applicationId, { [`${kind}Email`]: 'sent' });
  await addHistory(deps.store, applicationId, 'email sent', { note: kind });
  log.info('application email sent', { applicationId, kind });
  return { sent: true };
}

async function compose(deps: SendApplicationEmailDeps, app: StoredApplication, input: SendApplicationEmailInput): Promise<Email> {
  const common = { firstName: app.firstName, program: app.program, siteUrl: deps.siteUrl };
  switch (input.kind) {
    case 'confirmation':
      return applicationConfirmationEmail({ ...common, applicationId: app.id ?? input.applicationId, validPhotoCount: app.validPhotoCount ?? 0 });
    case 'invalid':
      return invalidPhotosEmail({
        ...common,
        applicationId: app.id ?? input.applicationId,
        validPhotoCount: app.validPhotoCount ?? 0,
        reasons: (app.photoResults ?? []).filter((r) => !r.accepted && r.reason).map((r) => r.reason!),
      });
    case 'acceptance': {
      let spotNumber = app.spotNumber;
      if (app.founding && spotNumber === undefined) {
        spotNumber = await spotNumberOf(deps.store, input.applicationId);
      }
      return acceptanceEmail({ ...common, founding: Boolean(app.founding && spotNumber), spotNumber });
    }
    case 'rejection':
      return rejectionEmail({ ...common, note: input.review?.note ?? app.decision?.note });
    default:
      throw new Error(`unknown email kind ${input.kind}`);
  }
}
