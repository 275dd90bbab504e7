// Data access for the FoundingApplications table used by the workflow steps
// (layout in docs/founding-pipeline.md).
import { randomBytes } from 'node:crypto';
import { GetCommand, PutCommand, UpdateCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { ApplicationDecisionRecord, PhotoResult } from '../../events/founding';
import type { ApplicationProgram, ApplicationStatus } from '../../events/founding-values';
import { foundingKeys } from './founding-keys';

export interface StoreDeps {
  doc: DynamoDBDocumentClient;
  tableName: string;
  now?: () => Date;
}

/** The application item as the workflow reads it (the signup writes the rest of its fields). */
export interface StoredApplication {
  id: string;
  program: ApplicationProgram;
  status: ApplicationStatus;
  firstName: string;
  lastName?: string;
  email: string;
  submittedAt: string;
  /** Uploaded object keys (`pending/{email}/...`), photos and zips. */
  imagePaths: string[];
  imageCount?: number;
  photoResults?: PhotoResult[];
  validPhotoCount?: number;
  rejectedPhotoCount?: number;
  validatedAt?: string;
  confirmationEmail?: 'sent' | 'failed';
  taskToken?: string;
  reviewWaitingSince?: string;
  decision?: ApplicationDecisionRecord;
  founding?: boolean;
  spotNumber?: number;
  royaltyPlan?: 'founding-35' | 'standard-tiers';
  talentId?: string;
  invitedAt?: string;
  photosDeletedAt?: string;
}

/** The application does not exist: retrying will not help. */
export class ApplicationNotFoundError extends Error {
  constructor(readonly applicationId: string) {
    super(`application ${applicationId} not found`);
    this.name = 'ApplicationNotFound';
  }
}

export const nowOf = (deps: { now?: () => Date }) => (deps.now ?? (() => new Date()))();

export async function getApplication(deps: StoreDeps, applicationId: string): Promise<StoredApplication> {
  const out = await deps.doc.send(
    new GetCommand({ TableName: deps.tableName, Key: foundingKeys.application(applicationId), ConsistentRead: true }),
  );
  if (!out.Item) throw new ApplicationNotFoundError(applicationId);
  return out.Item as StoredApplication;
}

export interface UpdateOptions {
  /** An extra condition (the item's existence is always required). */
  condition?: string;
  names?: Record<string, string>;
  values?: Record<string, unknown>;
  remove?: string[];
}

/**
 * Sets top-level attributes of the application (undefined values are skipped). Throws
 * ConditionalCheckFailedException when `condition` does not hold.
 */
export async function updateApplication(
  deps: StoreDeps,
  applicationId: string,
  set: Record<string, unknown>,
  options: UpdateOptions = {},
): Promise<void> {
  const names: Record<string, string> = { ...options.names };
  const values: Record<string, unknown> = { ...options.values };
  const assignments: string[] = [];
  Object.entries(set).forEach(([field, value], i) => {
    if (value === undefined) return;
    names[`#s${i}`] = field;
    values[`:s${i}`] = value;
    assignments.push(`#s${i} = :s${i}`);
  });
  const removals = (options.remove ?? []).map((field, i) => {
    names[`#r${i}`] = field;
    return `#r${i}`;
  });
  const expression = [assignments.length ? `SET ${assignments.join(', ')}` : '', removals.length ? `REMOVE ${removals.join(', ')}` : '']
    .filter(Boolean)
    .join(' ');
  await deps.doc.send(
    new UpdateCommand({
      TableName: deps.tableName,
      Key: foundingKeys.application(applicationId),
      UpdateExpression: expression,
      ConditionExpression: options.condition ? `attribute_exists(pk) AND (${options.condition})` : 'attribute_exists(pk)',
      ExpressionAttributeNames: names,
      ExpressionAttributeValues: Object.keys(values).length ? values : undefined,
    }),
  );
}

/** Appends an entry to the application's history (`HISTORY#{at}#{n}`). */
export async function addHistory(deps: StoreDeps, applicationId: string, event: string, extra: { by?: string; note?: string } = {}): Promise<void> {
  const at = nowOf(deps).toISOString();
  await deps.doc.send(
    new PutCommand({
      TableName: deps.tableName,
      Item: { ...foundingKeys.history(applicationId, at, randomBytes(3).toString('hex')), at, event, ...extra },
    }),
  );
}

export const isConditionFailure = (err: unknown) => (err as Error)?.name === 'ConditionalCheckFailedException';
