// The one data access of the founding domain: every read and write of the FoundingApplications
// table goes through here (layout in docs/founding-pipeline.md), so handlers never build keys
// or expressions themselves and internal fields never reach an API answer.
import { randomBytes } from 'node:crypto';
import {
  GetCommand,
  PutCommand,
  QueryCommand,
  TransactWriteCommand,
  UpdateCommand,
  type DynamoDBDocumentClient,
  type QueryCommandInput,
} from '@aws-sdk/lib-dynamodb';
import type { ApplicationDecisionRecord, ApplicationDetail, ApplicationSummary, FoundingSignupResponse, PhotoResult } from '../../events/founding';
import type { ApplicationProgram, ApplicationStatus } from '../../events/founding-values';
import { isConditionFailure } from '../shared/errors';
import { foundingKeys } from './founding-keys';

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
  /** Set while the application is stored but `FoundingApplication.Submitted` could not be published. */
  submittedEvent?: 'failed';
}

/** The application does not exist: retrying will not help. */
export class ApplicationNotFoundError extends Error {
  constructor(readonly applicationId: string) {
    super(`application ${applicationId} not found`);
    this.name = 'ApplicationNotFound';
  }
}

const isCancelled = (err: unknown) => (err as Error)?.name === 'TransactionCanceledException';


// ---- Uploads (the applicant's draft) ----

type UploadKind = 'photo' | 'zip';

/** A presigned key issued to an upload session. */
export interface IssuedUpload {
  uploadSession: string;
  name?: string;
  contentType: string;
  size: number;
  kind: UploadKind;
  issuedAt: string;
  /** TTL, epoch seconds. */
  expiresAt: number;
}

/** An object the bucket reported created, with what its zip directory showed. */
export interface UploadedObject {
  size: number;
  etag?: string;
  kind: UploadKind;
  uploadedAt: string;
  expiresAt: number;
  imageCount?: number;
  zipProblems?: string[];
}




// ---- Applications ----

/** The one application an address may have. */
export interface EmailLock {
  applicationId: string;
  fingerprint: string;
  submittedAt: string;
  response: FoundingSignupResponse;
}




export interface UpdateOptions {
  /** An extra condition (the item's existence is always required). */
  condition?: string;
  names?: Record<string, string>;
  values?: Record<string, unknown>;
  remove?: string[];
}







// ---- Views: what reviewers see, never the internal fields (task token, upload keys, fingerprints, index keys) ----

/* eslint-disable @typescript-eslint/no-explicit-any -- stored items are untyped */
type ApplicationItem = Record<string, any>;

function toSummary(item: ApplicationItem): ApplicationSummary {
  const summary: ApplicationSummary = {
    id: item.id,
    program: item.program,
    status: item.status,
    firstName: item.firstName,
    lastName: item.lastName ?? '',
    email: item.email,
    location: item.location,
    age: item.age,
    excludedIndustries: item.excludedIndustries ?? [],
    submittedAt: item.submittedAt,
    imageCount: item.imageCount,
  };
  const optional = ['validPhotoCount', 'rejectedPhotoCount', 'confirmationEmail', 'decision', 'founding', 'royaltyPlan', 'talentId'] as const;
  for (const key of optional) if (item[key] !== undefined) (summary as any)[key] = item[key];
  return summary;
}

/** The reviewer's view of a stored application, with its history and photo URLs. */
export function toDetail(
  item: StoredApplication,
  history: ApplicationDetail['history'],
  photos: ApplicationDetail['photos'],
): ApplicationDetail {
  const stored = item as ApplicationItem;
  return {
    ...toSummary(stored),
    phone: stored.phone ?? '',
    experience: stored.experience ?? '',
    interests: stored.interests ?? '',
    portfolioUrl: stored.portfolioUrl ?? '',
    terms: stored.terms,
    photoResults: stored.photoResults ?? [],
    photos,
    history,
  };
}
/* eslint-enable @typescript-eslint/no-explicit-any */

/** The founding spots counter's attribute naming the spot an application holds (decision 008). */
const holderAttribute = (applicationId: string) => `spot_${applicationId}`;

export type FoundingStore = ReturnType<typeof foundingStore>;

/** The FoundingApplications table; `now` stamps history entries and records (tests fix it). */
export function foundingStore(doc: DynamoDBDocumentClient, tableName: string, now: () => Date = () => new Date()) {
  /** Every item a query matches, page after page. */
  const queryAll = async (input: Omit<QueryCommandInput, 'TableName' | 'ExclusiveStartKey'>): Promise<Record<string, unknown>[]> => {
    const items: Record<string, unknown>[] = [];
    let start: Record<string, unknown> | undefined;
    do {
      const page = await doc.send(new QueryCommand({ ...input, TableName: tableName, ExclusiveStartKey: start }));
      items.push(...(page.Items ?? []));
      start = page.LastEvaluatedKey;
    } while (start);
    return items;
  };

  return {
    now,

    async recordIssuedUpload(email: string, key: string, issued: IssuedUpload): Promise<void> {
      await doc.send(new PutCommand({ TableName: tableName, Item: { ...foundingKeys.issued(email, key), ...issued } }));
    },

    /** Records an uploaded object once; false when it was recorded before (an event delivered twice). */
    async recordUploadedObject(email: string, key: string, upload: UploadedObject): Promise<boolean> {
      try {
        await doc.send(
          new PutCommand({ TableName: tableName, Item: { ...foundingKeys.upload(email, key), ...upload }, ConditionExpression: 'attribute_not_exists(pk)' }),
        );
        return true;
      } catch (err) {
        if (isConditionFailure(err)) return false;
        throw err;
      }
    },

    /** The keys issued to an address and the objects recorded for it, by object key. */
    async readDraft(email: string): Promise<{ issued: Map<string, IssuedUpload>; uploaded: Map<string, UploadedObject> }> {
      const issued = new Map<string, IssuedUpload>();
      const uploaded = new Map<string, UploadedObject>();
      const items = await queryAll({
        KeyConditionExpression: 'pk = :pk',
        ExpressionAttributeValues: { ':pk': foundingKeys.draft(email) },
        ConsistentRead: true,
      });
      for (const item of items) {
        const sk = String(item.sk);
        if (sk.startsWith('ISSUED#')) issued.set(sk.slice('ISSUED#'.length), item as unknown as IssuedUpload);
        else if (sk.startsWith('UPLOAD#')) uploaded.set(sk.slice('UPLOAD#'.length), item as unknown as UploadedObject);
      }
      return { issued, uploaded };
    },

    async getEmailLock(email: string): Promise<EmailLock | undefined> {
      const out = await doc.send(new GetCommand({ TableName: tableName, Key: foundingKeys.emailLock(email), ConsistentRead: true }));
      return out.Item as EmailLock | undefined;
    },

    /**
     * Stores a new application with its address lock and first history entry, in one transaction.
     * False when the address already has an application (or the id is taken).
     */
    async createApplication(application: StoredApplication & Record<string, unknown>, lock: EmailLock): Promise<boolean> {
      const { id, email, submittedAt } = application;
      try {
        await doc.send(
          new TransactWriteCommand({
            TransactItems: [
              { Put: { TableName: tableName, Item: { ...foundingKeys.emailLock(email), ...lock }, ConditionExpression: 'attribute_not_exists(pk)' } },
              {
                Put: {
                  TableName: tableName,
                  Item: { ...foundingKeys.application(id), ...application, gsi1pk: foundingKeys.listPk, gsi1sk: foundingKeys.listSk(submittedAt, id) },
                  ConditionExpression: 'attribute_not_exists(pk)',
                },
              },
              { Put: { TableName: tableName, Item: { ...foundingKeys.history(id, submittedAt, 0), at: submittedAt, event: 'submitted' } } },
            ],
          }),
        );
        return true;
      } catch (err) {
        if (isCancelled(err)) return false;
        throw err;
      }
    },

    async getApplication(applicationId: string): Promise<StoredApplication> {
      const out = await doc.send(
        new GetCommand({ TableName: tableName, Key: foundingKeys.application(applicationId), ConsistentRead: true }),
      );
      if (!out.Item) throw new ApplicationNotFoundError(applicationId);
      return out.Item as StoredApplication;
    },

    /**
     * Sets top-level attributes of the application (undefined values are skipped). Throws
     * ConditionalCheckFailedException when `condition` does not hold.
     */
    async updateApplication(applicationId: string, set: Record<string, unknown>, options: UpdateOptions = {}): Promise<void> {
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
      await doc.send(
        new UpdateCommand({
          TableName: tableName,
          Key: foundingKeys.application(applicationId),
          UpdateExpression: expression,
          ConditionExpression: options.condition ? `attribute_exists(pk) AND (${options.condition})` : 'attribute_exists(pk)',
          ExpressionAttributeNames: names,
          ExpressionAttributeValues: Object.keys(values).length ? values : undefined,
        }),
      );
    },

    /** Appends an entry to the application's history (`HISTORY#{at}#{n}`). */
    async addHistory(applicationId: string, event: string, extra: { by?: string; note?: string } = {}): Promise<void> {
      const at = now().toISOString();
      await doc.send(
        new PutCommand({
          TableName: tableName,
          Item: { ...foundingKeys.history(applicationId, at, randomBytes(3).toString('hex')), at, event, ...extra },
        }),
      );
    },

    /**
     * Records a reviewer's decision against the task token the application is waiting with, and
     * its history entry, in one transaction. False when the application is no longer waiting with
     * that token (decided meanwhile, or the wait re-armed with a new token).
     */
    async recordDecision(applicationId: string, taskToken: string, record: ApplicationDecisionRecord, status: 'accepted' | 'rejected'): Promise<boolean> {
      try {
        await doc.send(
          new TransactWriteCommand({
            TransactItems: [
              {
                Update: {
                  TableName: tableName,
                  Key: foundingKeys.application(applicationId),
                  UpdateExpression: 'SET decision = :decision, #status = :status REMOVE taskToken',
                  ConditionExpression: '#status = :pending AND taskToken = :token AND attribute_not_exists(decision)',
                  ExpressionAttributeNames: { '#status': 'status' },
                  ExpressionAttributeValues: { ':decision': record, ':status': status, ':pending': 'pending_review', ':token': taskToken },
                },
              },
              {
                Put: {
                  TableName: tableName,
                  Item: {
                    ...foundingKeys.history(applicationId, record.decidedAt, 'decided'),
                    at: record.decidedAt,
                    event: `decided: ${record.decision}`,
                    by: record.decidedBy,
                    ...(record.note ? { note: record.note } : {}),
                  },
                },
              },
            ],
          }),
        );
        return true;
      } catch (err) {
        if (isCancelled(err)) return false;
        throw err;
      }
    },

    /** The application's history, oldest first. */
    async readHistory(applicationId: string): Promise<ApplicationDetail['history']> {
      const items = await queryAll({
        KeyConditionExpression: 'pk = :pk AND begins_with(sk, :history)',
        ExpressionAttributeValues: { ':pk': foundingKeys.applicationPk(applicationId), ':history': 'HISTORY#' },
        ConsistentRead: true,
      });
      return items.map((item) => ({
        at: item.at as string,
        event: item.event as string,
        ...(item.by ? { by: item.by as string } : {}),
        ...(item.note ? { note: item.note as string } : {}),
      }));
    },

    /** Every application from the `byList` index (hundreds at most before launch), as reviewers see them. */
    async listApplicationSummaries(): Promise<ApplicationSummary[]> {
      const items = await queryAll({
        IndexName: 'byList',
        KeyConditionExpression: 'gsi1pk = :pk',
        ExpressionAttributeValues: { ':pk': foundingKeys.listPk },
      });
      return items.map(toSummary);
    },

    /** What the dashboard counts of each application, from the `byList` index. */
    async listApplicationStatuses(): Promise<Array<Pick<StoredApplication, 'status' | 'submittedAt' | 'confirmationEmail'>>> {
      const items = await queryAll({
        IndexName: 'byList',
        KeyConditionExpression: 'gsi1pk = :list',
        ExpressionAttributeNames: { '#status': 'status' },
        ExpressionAttributeValues: { ':list': foundingKeys.listPk },
        ProjectionExpression: '#status, submittedAt, confirmationEmail',
      });
      return items as Array<Pick<StoredApplication, 'status' | 'submittedAt' | 'confirmationEmail'>>;
    },

    /** Founding spots allocated so far. */
    async foundingSpotsTaken(): Promise<number> {
      const out = await doc.send(new GetCommand({ TableName: tableName, Key: foundingKeys.spots, ConsistentRead: true }));
      return Number(out.Item?.taken ?? 0);
    },

    /**
     * Takes a spot for the application if one of `total` is left, exactly once, in one conditional
     * UpdateItem on the counter `SPOTS/FOUNDING`:
     *
     *   SET taken = if_not_exists(taken, 0) + 1, spot_{id} = if_not_exists(taken, 0) + 1
     *   IF attribute_not_exists(spot_{id}) AND (attribute_not_exists(taken) OR taken < total)
     *
     * Both right-hand sides read the item as it was, so the application's number is the new count,
     * recorded atomically with it: no spot can be taken without its holder, none twice, and the
     * counter never passes the total. Writes to one item are serialised by DynamoDB, so many
     * simultaneous acceptances need no retry loop. When the condition fails, the counter says which
     * case it was: the application holds a spot already (a retry), or none is left (undefined).
     */
    async takeFoundingSpot(applicationId: string, total: number): Promise<number | undefined> {
      const names = { '#holder': holderAttribute(applicationId) };
      try {
        const out = await doc.send(
          new UpdateCommand({
            TableName: tableName,
            Key: foundingKeys.spots,
            UpdateExpression: 'SET taken = if_not_exists(taken, :zero) + :one, #holder = if_not_exists(taken, :zero) + :one, updatedAt = :at',
            ConditionExpression: 'attribute_not_exists(#holder) AND (attribute_not_exists(taken) OR taken < :total)',
            ExpressionAttributeNames: names,
            ExpressionAttributeValues: { ':zero': 0, ':one': 1, ':total': total, ':at': now().toISOString() },
            ReturnValues: 'UPDATED_NEW',
          }),
        );
        const number = out.Attributes?.[names['#holder']];
        if (typeof number !== 'number') throw new Error(`spot allocation for ${applicationId} returned no number`);
        return number;
      } catch (err) {
        if (!isConditionFailure(err)) throw err;
        const counter = await doc.send(new GetCommand({ TableName: tableName, Key: foundingKeys.spots, ConsistentRead: true }));
        return counter.Item?.[names['#holder']] as number | undefined;
      }
    },

    /** `SPOT#{id}`: the spot an application got, for lookups by application (idempotent). */
    async recordSpot(applicationId: string, number: number): Promise<void> {
      await doc.send(
        new PutCommand({
          TableName: tableName,
          Item: { ...foundingKeys.spot(applicationId), applicationId, number, allocatedAt: now().toISOString() },
        }),
      );
    },

    async spotNumberOf(applicationId: string): Promise<number | undefined> {
      const spot = await doc.send(new GetCommand({ TableName: tableName, Key: foundingKeys.spot(applicationId), ConsistentRead: true }));
      return spot.Item?.number as number | undefined;
    },
  };
}
