// The one data access of the founding domain: every read and write of the FoundingApplications
// table goes through here (layout in docs/founding-pipeline.md), so handlers never build keys
// or expressions themselves and internal fields never reach an API answer.
import type { ConsentRecord, CopyOf, FaceConsentState, FailedCheck, IdentityState, ReviewIdentity, ReviewVerification, SelfieState } from '../../events/identity';
import { randomBytes } from 'node:crypto';
import {
  DeleteCommand,
  GetCommand,
  PutCommand,
  QueryCommand,
  TransactWriteCommand,
  UpdateCommand,
  type DynamoDBDocumentClient,
  type QueryCommandInput,
} from '@aws-sdk/lib-dynamodb';
import type { ApplicationDecisionRecord, ApplicationDetail, ApplicationSummary, FoundingSignupResponse, PhotoResult } from '../../events/founding';
import type { ApplicationProgram, ApplicationStatus, ExcludableIndustry, RetryableStep } from '../../events/founding-values';
import { AWAITING_CONFIRMATION } from '../../events/founding-values';
import { cancellationReasons, isConditionFailure } from '../shared/errors';
import type { Condition } from '../shared/store';
import { log } from '../shared/log';
import { deleteItems, scanItems } from '../shared/erasure';
import { queryAll as queryAllItems } from '../shared/query-all';
import { addressHashOf, foundingKeys } from './keys';

/** The application item as the workflow reads it (the signup writes the rest of its fields). */
/** The proof of person as stored on the application (no descriptor: those are encrypted in the bucket). */
export interface StoredIdentity {
  state: IdentityState;
  faceConsent: FaceConsentState;
  /** Written once, never changed (photoSetHash and selfieHash are added once each). */
  consent?: ConsentRecord;
  /** When a given face data consent was withdrawn (faceConsent `withdrawn`; docs/identity.md). */
  faceConsentWithdrawnAt?: string;
  summary?: NonNullable<ReviewIdentity['summary']>;
  /**
   * The verified selfie (Stripe Identity's, docs/identity.md "Verified identity") as our face check
   * judged it: `key` where its bytes are kept, `sessionId` the VerificationSession it came from.
   */
  selfie?: { state: SelfieState; key?: string; score?: number; threshold?: number; takenAt?: string; copyOf?: CopyOf; sessionId?: string };
  replacementRounds?: number;
  replaceBy?: string;
  /** Replacements submitted and not yet checked. */
  pendingReplacements?: { remove: number[]; keys: string[]; at: string };
  checkedAt?: string;
}

export interface StoredApplication {
  id: string;
  program: ApplicationProgram;
  status: ApplicationStatus | typeof AWAITING_CONFIRMATION;
  firstName: string;
  lastName?: string;
  email: string;
  submittedAt: string;
  /** Industries the applicant's likeness may not be used for (absent on applications stored before it was kept). */
  excludedIndustries?: ExcludableIndustry[];
  /** Uploaded object keys (`pending/{uploadFolder}/...`), photos and zips. */
  imagePaths: string[];
  /** The opaque folder of the upload session the application's objects were issued to. */
  uploadFolder?: string;
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
  photosMarkedAt?: string;
  /** Status `failed` (decision 017): the step that failed for good, its error name, when. */
  failure?: { step: RetryableStep; error: string; at: string };
  /** The status the application had when its step failed; a retry restores it. */
  statusBeforeFailure?: ApplicationStatus;
  /** Times an admin has retried the application. */
  retryCount?: number;
  /** The name of the execution the review belongs to (decision 017). */
  reviewExecution?: string;
  /** The proof of person (docs/identity.md): consent, check state, selfie, replacements. */
  identity?: StoredIdentity;
  /**
   * The AwaitIdentity step's task token while the workflow waits for the proof of person: an
   * attribute of its own, so the step and the applicant's consent never overwrite each other.
   */
  identityTaskToken?: string;
  /**
   * The ID verification with Stripe Identity (docs/identity.md, "Verified identity"): an attribute
   * of its own beside `identity`, so the face checks and a withdrawal (which write `identity`)
   * never overwrite it; `verificationRevision` counts its writes, each conditional on the last.
   */
  verification?: ReviewVerification;
  verificationRevision?: number;
  /** Checks that failed: kept through a withdrawal of face consent (the fact, not the data). */
  failedChecks?: FailedCheck[];
  /** Kept while the address is unconfirmed: the address lock is written from them on confirmation. */
  fingerprint?: string;
  response?: FoundingSignupResponse;
  confirmedAt?: string;
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
  /** File entries of a zip (photos or not). */
  fileCount?: number;
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




/** An unconfirmed submission: what a repeat of it is answered. */
export interface PendingSubmission {
  fingerprint: string;
  applicationId: string;
  response: FoundingSignupResponse;
  /** TTL, epoch seconds: the submission is forgotten with its application. */
  expiresAt: number;
}

/** A confirmation link's token, stored by its hash. */
export interface ConfirmToken {
  applicationId: string;
  /** TTL and the link's expiry, epoch seconds (TTL deletes late, so confirming checks it too). */
  expiresAt: number;
  issuedAt: string;
  usedAt?: string;
}

/** Attributes of the application to remove with an update. */
interface UpdateOptions {
  remove?: string[];
}

/** The face data consent stands: a write of the face checks' results holds only while it does. */
const FACE_CONSENT_GIVEN: Condition = {
  expression: '#identity.#faceConsent = :given',
  names: { '#identity': 'identity', '#faceConsent': 'faceConsent' },
  values: { ':given': 'given' },
};







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
  if (item.status === 'failed' && item.failure) summary.failure = { ...item.failure, ...(item.retryCount ? { retries: item.retryCount } : {}) };
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
  const queryAll = (input: Omit<QueryCommandInput, 'TableName' | 'ExclusiveStartKey'>) => queryAllItems(doc, tableName, input);

  /**
   * Sets top-level attributes of the application (undefined values are skipped) and removes
   * `remove`, while it exists and `condition` holds (ConditionalCheckFailedException otherwise).
   */
  const write = async (applicationId: string, set: Record<string, unknown>, options: UpdateOptions & { condition?: Condition } = {}): Promise<void> => {
    const names: Record<string, string> = { ...options.condition?.names };
    const values: Record<string, unknown> = { ...options.condition?.values };
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
        ConditionExpression: options.condition ? `attribute_exists(pk) AND (${options.condition.expression})` : 'attribute_exists(pk)',
        ExpressionAttributeNames: names,
        ExpressionAttributeValues: Object.keys(values).length ? values : undefined,
      }),
    );
  };

  /** `write` under a condition of this store's own: false when the application is gone or the condition refuses it. */
  const writeIf = async (applicationId: string, set: Record<string, unknown>, condition: Condition, remove?: string[]): Promise<boolean> => {
    try {
      await write(applicationId, set, { condition, remove });
      return true;
    } catch (err) {
      if (isConditionFailure(err)) return false;
      throw err;
    }
  };

  /**
   * An update of the application written with this store's own expression (list appends, nested
   * paths): false when `condition` refuses it.
   */
  const updateIf = async (
    applicationId: string,
    update: { expression: string; condition: string; names?: Record<string, string>; values?: Record<string, unknown> },
  ): Promise<boolean> => {
    try {
      await doc.send(
        new UpdateCommand({
          TableName: tableName,
          Key: foundingKeys.application(applicationId),
          UpdateExpression: update.expression,
          ConditionExpression: update.condition,
          ExpressionAttributeNames: update.names,
          ExpressionAttributeValues: update.values,
        }),
      );
      return true;
    } catch (err) {
      if (isConditionFailure(err)) return false;
      throw err;
    }
  };

  return {
    now,

    async recordIssuedUpload(folder: string, key: string, issued: IssuedUpload): Promise<void> {
      await doc.send(new PutCommand({ TableName: tableName, Item: { ...foundingKeys.issued(folder, key), ...issued } }));
    },

    /**
     * Reserves `count` more keys for an upload session, in one conditional UpdateItem on the
     * session's counter: the first request binds the session to its address (hashed), and the
     * count never passes `max`, however many requests run at once. On refusal the counter says
     * why: the session belongs to another address, or it has used its keys.
     */
    async reserveUploads(folder: string, addressHash: string, count: number, max: number, expiresAt: number): Promise<'reserved' | 'other-address' | 'full'> {
      try {
        await doc.send(
          new UpdateCommand({
            TableName: tableName,
            Key: foundingKeys.session(folder),
            UpdateExpression: 'SET issued = if_not_exists(issued, :zero) + :count, addressHash = if_not_exists(addressHash, :address), expiresAt = :expires',
            ConditionExpression: '(attribute_not_exists(addressHash) OR addressHash = :address) AND (attribute_not_exists(issued) OR issued <= :room)',
            ExpressionAttributeValues: { ':zero': 0, ':count': count, ':address': addressHash, ':room': max - count, ':expires': expiresAt },
          }),
        );
        return 'reserved';
      } catch (err) {
        if (!isConditionFailure(err)) throw err;
        const out = await doc.send(new GetCommand({ TableName: tableName, Key: foundingKeys.session(folder), ConsistentRead: true }));
        return out.Item && out.Item.addressHash !== addressHash ? 'other-address' : 'full';
      }
    },

    /** Records an uploaded object once; false when it was recorded before (an event delivered twice). */
    async recordUploadedObject(folder: string, key: string, upload: UploadedObject): Promise<boolean> {
      try {
        await doc.send(
          new PutCommand({ TableName: tableName, Item: { ...foundingKeys.upload(folder, key), ...upload }, ConditionExpression: 'attribute_not_exists(pk)' }),
        );
        return true;
      } catch (err) {
        if (isConditionFailure(err)) return false;
        throw err;
      }
    },

    /** The keys issued to an upload session, the objects recorded for it (by object key) and its owner's address hash. */
    async readDraft(folder: string): Promise<{ issued: Map<string, IssuedUpload>; uploaded: Map<string, UploadedObject>; addressHash?: string }> {
      const issued = new Map<string, IssuedUpload>();
      const uploaded = new Map<string, UploadedObject>();
      let addressHash: string | undefined;
      const items = await queryAll({
        KeyConditionExpression: 'pk = :pk',
        ExpressionAttributeValues: { ':pk': foundingKeys.draft(folder) },
        ConsistentRead: true,
      });
      for (const item of items) {
        const sk = String(item.sk);
        if (sk.startsWith('ISSUED#')) issued.set(sk.slice('ISSUED#'.length), item as unknown as IssuedUpload);
        else if (sk.startsWith('UPLOAD#')) uploaded.set(sk.slice('UPLOAD#'.length), item as unknown as UploadedObject);
        else if (sk === 'SESSION') addressHash = item.addressHash as string;
      }
      return { issued, uploaded, addressHash };
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

    /**
     * Stores an application awaiting its address's confirmation (decision 013): no address lock,
     * no place in the review list, and an expiry. The submission's fingerprint is claimed in the
     * same transaction, so the same submission repeated (even at once) is stored once; a repeat
     * gets the first one's record instead.
     */
    async createPendingApplication(
      application: StoredApplication & Record<string, unknown>,
      submission: PendingSubmission,
    ): Promise<{ created: boolean; submission: PendingSubmission }> {
      try {
        await doc.send(
          new TransactWriteCommand({
            TransactItems: [
              {
                Put: {
                  TableName: tableName,
                  Item: { ...foundingKeys.submission(submission.fingerprint), ...submission },
                  ConditionExpression: 'attribute_not_exists(pk) OR expiresAt < :now',
                  ExpressionAttributeValues: { ':now': Math.floor(now().getTime() / 1000) },
                },
              },
              {
                Put: {
                  TableName: tableName,
                  Item: { ...foundingKeys.application(application.id), ...application, expiresAt: submission.expiresAt },
                  ConditionExpression: 'attribute_not_exists(pk)',
                },
              },
            ],
          }),
        );
        return { created: true, submission };
      } catch (err) {
        if (!isCancelled(err)) throw err;
        const out = await doc.send(new GetCommand({ TableName: tableName, Key: foundingKeys.submission(submission.fingerprint), ConsistentRead: true }));
        if (!out.Item) throw err;
        return { created: false, submission: out.Item as PendingSubmission };
      }
    },

    /** Stores a confirmation link's token by its hash, with its expiry (also its TTL). */
    async putConfirmToken(tokenHash: string, token: ConfirmToken): Promise<void> {
      await doc.send(new PutCommand({ TableName: tableName, Item: { ...foundingKeys.confirmToken(tokenHash), ...token } }));
    },

    /** Stores an applicant's identity token by its hash (its expiry is also its TTL). */
    async putIdentityToken(tokenHash: string, token: { applicationId: string; expiresAt: number; purpose: 'identity' | 'replace' }): Promise<void> {
      await doc.send(new PutCommand({ TableName: tableName, Item: { ...foundingKeys.identityToken(tokenHash), ...token } }));
    },

    async getIdentityToken(tokenHash: string): Promise<{ applicationId: string; expiresAt: number; purpose: 'identity' | 'replace' } | undefined> {
      const out = await doc.send(new GetCommand({ TableName: tableName, Key: foundingKeys.identityToken(tokenHash), ConsistentRead: true }));
      return out.Item as { applicationId: string; expiresAt: number; purpose: 'identity' | 'replace' } | undefined;
    },

    async getConfirmToken(tokenHash: string): Promise<ConfirmToken | undefined> {
      const out = await doc.send(new GetCommand({ TableName: tableName, Key: foundingKeys.confirmToken(tokenHash), ConsistentRead: true }));
      return out.Item as ConfirmToken | undefined;
    },

    /**
     * Confirms an application's address in one transaction: uses up the token (unused and not
     * expired), takes the address's one-application lock, moves the application from awaiting
     * confirmation to `validating` in the review list without its expiry, and writes its first
     * history entries. `duplicate` when the address already has a confirmed application,
     * `refused` when the token or the application no longer qualifies.
     */
    async confirmApplication(app: StoredApplication, tokenHash: string, lock: EmailLock): Promise<'confirmed' | 'duplicate' | 'refused'> {
      const at = now();
      const confirmedAt = at.toISOString();
      try {
        await doc.send(
          new TransactWriteCommand({
            TransactItems: [
              {
                Update: {
                  TableName: tableName,
                  Key: foundingKeys.confirmToken(tokenHash),
                  UpdateExpression: 'SET usedAt = :at',
                  ConditionExpression: 'attribute_exists(pk) AND attribute_not_exists(usedAt) AND expiresAt > :now',
                  ExpressionAttributeValues: { ':at': confirmedAt, ':now': Math.floor(at.getTime() / 1000) },
                },
              },
              { Put: { TableName: tableName, Item: { ...foundingKeys.emailLock(app.email), ...lock }, ConditionExpression: 'attribute_not_exists(pk)' } },
              {
                Update: {
                  TableName: tableName,
                  Key: foundingKeys.application(app.id),
                  UpdateExpression: 'SET #status = :validating, confirmedAt = :at, gsi1pk = :list, gsi1sk = :sk REMOVE expiresAt',
                  ConditionExpression: '#status = :awaiting',
                  ExpressionAttributeNames: { '#status': 'status' },
                  ExpressionAttributeValues: {
                    ':validating': 'validating',
                    ':awaiting': AWAITING_CONFIRMATION,
                    ':at': confirmedAt,
                    ':list': foundingKeys.listPk,
                    ':sk': foundingKeys.listSk(app.submittedAt, app.id),
                  },
                },
              },
              { Put: { TableName: tableName, Item: { ...foundingKeys.history(app.id, app.submittedAt, 0), at: app.submittedAt, event: 'submitted' } } },
              { Put: { TableName: tableName, Item: { ...foundingKeys.history(app.id, confirmedAt, 1), at: confirmedAt, event: 'address confirmed' } } },
            ],
          }),
        );
        return 'confirmed';
      } catch (err) {
        const reasons = cancellationReasons(err);
        if (!reasons) throw err;
        if (reasons[1] === 'ConditionalCheckFailed') return 'duplicate';
        if (!reasons.length) {
          // Without cancellation reasons, the lock tells whether the address was taken.
          const taken = await doc.send(new GetCommand({ TableName: tableName, Key: foundingKeys.emailLock(app.email), ConsistentRead: true }));
          if (taken.Item) return 'duplicate';
        }
        return 'refused';
      }
    },

    async getApplication(applicationId: string): Promise<StoredApplication> {
      const out = await doc.send(
        new GetCommand({ TableName: tableName, Key: foundingKeys.application(applicationId), ConsistentRead: true }),
      );
      if (!out.Item) throw new ApplicationNotFoundError(applicationId);
      return out.Item as StoredApplication;
    },

    /** `FoundingApplication.Submitted` published: a failed announcement is forgotten. */
    markAnnounced: (applicationId: string) => write(applicationId, {}, { remove: ['submittedEvent'] }),

    /** Stored but not announced: the applicant's retry announces it again. */
    markAnnouncementFailed: (applicationId: string) => write(applicationId, { submittedEvent: 'failed' }),

    /** The AwaitIdentity step's task token, for the proof of person to resume the workflow with. */
    storeIdentityTaskToken: (applicationId: string, taskToken: string) => write(applicationId, { identityTaskToken: taskToken }),

    /** An application email (`{kind}Email`) sent. */
    recordEmailSent: (applicationId: string, kind: string) => write(applicationId, { [`${kind}Email`]: 'sent' }),

    /** An application email failed for good, with its error's name. */
    recordEmailFailed: (applicationId: string, kind: string, errorName: string) => write(applicationId, { [`${kind}Email`]: 'failed', [`${kind}EmailError`]: errorName }),

    /** Whether the application got a founding spot (and which), and its royalty plan. */
    recordSpotDecision: (applicationId: string, decision: { founding: boolean; spotNumber?: number; royaltyPlan: NonNullable<StoredApplication['royaltyPlan']> }) =>
      write(applicationId, { ...decision, spotDecidedAt: now().toISOString() }),

    /** The catalog talent the accepted application became. */
    recordTalentCreated: (applicationId: string, talentId: string) => write(applicationId, { talentId, status: 'accepted' }),

    /** The talent invited to sign in. */
    recordInvited: (applicationId: string) => write(applicationId, { invitedAt: now().toISOString() }),

    /** The application's photos tagged for the bucket's deletion rule. */
    recordPhotosMarked: (applicationId: string) => write(applicationId, { photosMarkedAt: now().toISOString() }),

    /** The application's photos deleted. */
    recordPhotosDeleted: (applicationId: string) => write(applicationId, { photosDeletedAt: now().toISOString() }),

    /** A step failed for good (decision 017): status `failed`, the failure, and the status a retry restores. */
    recordFailure: (applicationId: string, failure: NonNullable<StoredApplication['failure']>, statusBeforeFailure: StoredApplication['status'] | undefined) =>
      write(applicationId, { status: 'failed', failure, statusBeforeFailure }),

    /** A retry whose execution could not start: the application is failed again as it was. */
    restoreFailure: (applicationId: string, failure: NonNullable<StoredApplication['failure']>, retryCount: number) =>
      write(applicationId, { status: 'failed', failure, retryCount }),

    /** The face checks' results, while the face data consent stands; false when it was withdrawn meanwhile (or the application is gone). */
    recordFaceChecks: (applicationId: string, photoResults: PhotoResult[], identity: StoredIdentity) =>
      writeIf(applicationId, { photoResults, identity }, FACE_CONSENT_GIVEN),

    /**
     * A VerificationSession created for the application (docs/identity.md, "Verified identity"):
     * its attempt recorded in `verification`, and its index item naming the application, in one
     * transaction. Only while the consent is signed, no decision is recorded, and nobody wrote the
     * verification since it was read at `revision` (so two requests at once never pass the number
     * of sessions allowed); false otherwise.
     */
    async recordVerificationSession(applicationId: string, sessionId: string, verification: ReviewVerification, revision: number): Promise<boolean> {
      const revisionHolds = revision === 0 ? 'attribute_not_exists(verificationRevision)' : 'verificationRevision = :revision';
      try {
        await doc.send(
          new TransactWriteCommand({
            TransactItems: [
              {
                Update: {
                  TableName: tableName,
                  Key: foundingKeys.application(applicationId),
                  UpdateExpression: 'SET verification = :verification, verificationRevision = :next',
                  ConditionExpression: `attribute_exists(pk) AND attribute_exists(#identity.consent) AND attribute_not_exists(decision) AND ${revisionHolds}`,
                  ExpressionAttributeNames: { '#identity': 'identity' },
                  ExpressionAttributeValues: { ':verification': verification, ':next': revision + 1, ...(revision === 0 ? {} : { ':revision': revision }) },
                },
              },
              {
                Put: {
                  TableName: tableName,
                  Item: { ...foundingKeys.verificationSession(sessionId), applicationId, createdAt: now().toISOString() },
                  ConditionExpression: 'attribute_not_exists(pk) OR applicationId = :id',
                  ExpressionAttributeValues: { ':id': applicationId },
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

    /** The application a VerificationSession was created for, from its index item; undefined for a session we did not create. */
    async applicationOfVerificationSession(sessionId: string): Promise<string | undefined> {
      const out = await doc.send(new GetCommand({ TableName: tableName, Key: foundingKeys.verificationSession(sessionId), ConsistentRead: true }));
      return typeof out.Item?.applicationId === 'string' ? out.Item.applicationId : undefined;
    },

    /**
     * The verification as Stripe says it stands now, and the checks that failed with it added, while
     * nobody wrote the verification since it was read at `revision`; false otherwise (read again).
     */
    async recordVerification(applicationId: string, revision: number, update: { verification: ReviewVerification; addedChecks?: FailedCheck[] }): Promise<boolean> {
      const values: Record<string, unknown> = { ':verification': update.verification, ':next': revision + 1, ...(revision === 0 ? {} : { ':revision': revision }) };
      let expression = 'SET verification = :verification, verificationRevision = :next';
      if (update.addedChecks?.length) {
        values[':added'] = update.addedChecks;
        values[':none'] = [];
        expression += ', failedChecks = list_append(if_not_exists(failedChecks, :none), :added)';
      }
      return updateIf(applicationId, {
        expression,
        condition: `attribute_exists(pk) AND ${revision === 0 ? 'attribute_not_exists(verificationRevision)' : 'verificationRevision = :revision'}`,
        values,
      });
    },

    /**
     * The verified selfie's outcome (a checked failure added to `failedChecks`), while the face
     * data consent stands, this session's selfie is not recorded yet and no later session's
     * selfie was; false otherwise.
     */
    async recordVerifiedSelfie(applicationId: string, selfie: NonNullable<StoredIdentity['selfie']>, options: { failed?: FailedCheck; selfieHash?: string } = {}): Promise<boolean> {
      const { failed, selfieHash } = options;
      const names: Record<string, string> = { ...FACE_CONSENT_GIVEN.names, '#selfie': 'selfie', '#session': 'sessionId', '#state': 'state' };
      const values: Record<string, unknown> = {
        ...FACE_CONSENT_GIVEN.values,
        ':selfie': selfie,
        ':taken': selfie.takenAt ?? '',
        ':session': selfie.sessionId ?? '',
        ':unchecked': 'none',
      };
      let expression = 'SET #identity.#selfie = :selfie';
      if (selfieHash) {
        // The signed record keeps the first selfie's hash, added once.
        names['#consent'] = 'consent';
        values[':hash'] = selfieHash;
        expression += ', #identity.#consent.selfieHash = if_not_exists(#identity.#consent.selfieHash, :hash)';
      }
      if (failed) {
        values[':failed'] = [failed];
        values[':none'] = [];
        expression += ', failedChecks = list_append(if_not_exists(failedChecks, :none), :failed)';
      }
      return updateIf(applicationId, {
        expression,
        // Recorded once per session: a second run of the check for the same selfie (its trigger
        // fired twice) finds it recorded and adds no second failed check.
        condition:
          `attribute_exists(pk) AND (${FACE_CONSENT_GIVEN.expression}) AND (attribute_not_exists(#identity.#selfie) OR ` +
          '(#identity.#selfie.#session = :session AND #identity.#selfie.#state = :unchecked) OR ' +
          '(#identity.#selfie.#session <> :session AND (attribute_not_exists(#identity.#selfie.takenAt) OR #identity.#selfie.takenAt <= :taken)))',
        names,
        values,
      });
    },

    /** A check that failed, added to the application's (kept through a withdrawal of face consent). */
    async addFailedCheck(applicationId: string, failed: FailedCheck): Promise<boolean> {
      return updateIf(applicationId, {
        expression: 'SET failedChecks = list_append(if_not_exists(failedChecks, :none), :failed)',
        condition: 'attribute_exists(pk)',
        values: { ':failed': [failed], ':none': [] },
      });
    },

    /** When Stripe's copy of the verification was redacted through its API; false without a verification. */
    async recordVerificationRedacted(applicationId: string, redactedAt: string): Promise<boolean> {
      return updateIf(applicationId, {
        expression: 'SET verification.redactedAt = :at',
        condition: 'attribute_exists(pk) AND attribute_exists(verification) AND attribute_not_exists(verification.redactedAt)',
        values: { ':at': redactedAt },
      });
    },

    /**
     * A decision the system takes itself (an ID showing the person under 18), with its history
     * line, in one transaction: status `rejected`, while no decision is recorded and the
     * application's photos are validated (`validatedAt`) and it is not decided or failed; false
     * otherwise. The workflow's review step finds the decision and resumes with it.
     */
    async recordSystemDecision(applicationId: string, record: ApplicationDecisionRecord): Promise<boolean> {
      try {
        await doc.send(
          new TransactWriteCommand({
            TransactItems: [
              {
                Update: {
                  TableName: tableName,
                  Key: foundingKeys.application(applicationId),
                  UpdateExpression: 'SET decision = :decision, #status = :rejected',
                  ConditionExpression: 'attribute_exists(pk) AND attribute_not_exists(decision) AND attribute_exists(validatedAt) AND #status IN (:validating, :pending)',
                  ExpressionAttributeNames: { '#status': 'status' },
                  ExpressionAttributeValues: { ':decision': record, ':rejected': 'rejected', ':validating': 'validating', ':pending': 'pending_review' },
                },
              },
              {
                Put: {
                  TableName: tableName,
                  Item: { ...foundingKeys.history(applicationId, record.decidedAt, 'decided'), at: record.decidedAt, event: `decided: ${record.decision}`, by: record.decidedBy, ...(record.note ? { note: record.note } : {}) },
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

    /**
     * The application's perceptual hashes (each `hash:mirroredHash`): its photo set's as checked
     * (replacing the last), or a verified selfie's (added). Kept for the copy check across
     * applications; deleted with the photos.
     */
    async recordImageHashes(applicationId: string, hashes: { photos: string[] } | { selfie: string }): Promise<void> {
      const photos = 'photos' in hashes;
      await doc.send(
        new UpdateCommand({
          TableName: tableName,
          Key: foundingKeys.imageHashes(applicationId),
          UpdateExpression: photos ? 'SET applicationId = :id, photos = :photos' : 'SET applicationId = :id, selfies = list_append(if_not_exists(selfies, :none), :selfie)',
          ExpressionAttributeValues: photos ? { ':id': applicationId, ':photos': hashes.photos } : { ':id': applicationId, ':selfie': [hashes.selfie], ':none': [] },
        }),
      );
    },

    /**
     * Every application's perceptual hashes but `except`'s, from the one `IMAGEHASHES` partition
     * (about 10 KB an application: a query pages through hundreds of applications in a few reads;
     * docs/identity.md names the limit).
     */
    async listImageHashes(except: string): Promise<Array<{ applicationId: string; photos: string[]; selfies: string[] }>> {
      const items = await queryAll({ KeyConditionExpression: 'pk = :pk', ExpressionAttributeValues: { ':pk': foundingKeys.imageHashesPk } });
      return items
        .filter((i) => i.applicationId !== except)
        .map((i) => ({ applicationId: String(i.applicationId), photos: (i.photos as string[] | undefined) ?? [], selfies: (i.selfies as string[] | undefined) ?? [] }));
    },

    /** The application's own perceptual hashes (its earlier selfies' among them). */
    async imageHashesOf(applicationId: string): Promise<{ photos: string[]; selfies: string[] }> {
      const out = await doc.send(new GetCommand({ TableName: tableName, Key: foundingKeys.imageHashes(applicationId), ConsistentRead: true }));
      return { photos: (out.Item?.photos as string[] | undefined) ?? [], selfies: (out.Item?.selfies as string[] | undefined) ?? [] };
    },

    /** Forgets the application's perceptual hashes (its photos are deleted). */
    async deleteImageHashes(applicationId: string): Promise<void> {
      await doc.send(new DeleteCommand({ TableName: tableName, Key: foundingKeys.imageHashes(applicationId) }));
    },

    /** The face data consent withdrawn, once: false when it no longer stands (withdrawn meanwhile). */
    withdrawFaceConsent: (applicationId: string, identity: StoredIdentity) => writeIf(applicationId, { identity }, FACE_CONSENT_GIVEN),

    /** The signed consent, once: false when the application has one already. */
    recordConsent: (applicationId: string, identity: StoredIdentity) =>
      writeIf(applicationId, { identity }, { expression: 'attribute_not_exists(#identity.consent)', names: { '#identity': 'identity' } }),

    /** Replacement photos sent, while the application waits for them and has none pending; false otherwise. */
    recordReplacementsSent: (applicationId: string, identity: StoredIdentity) =>
      writeIf(applicationId, { identity }, {
        expression: '#identity.#state = :waiting AND attribute_not_exists(#identity.pendingReplacements)',
        names: { '#identity': 'identity', '#state': 'state' },
        values: { ':waiting': 'awaiting-photos' },
      }),

    /** The replacements sent at `pendingAt` applied to the photos, once: false when they were applied already. */
    applyReplacements: (applicationId: string, pendingAt: string, applied: { photoResults: PhotoResult[]; identity: StoredIdentity; validPhotoCount: number }) =>
      writeIf(applicationId, applied, { expression: '#identity.pendingReplacements.#at = :at', names: { '#identity': 'identity', '#at': 'at' }, values: { ':at': pendingAt } }),

    /** The photos' validation, once: false when a concurrent run recorded its results first. */
    recordValidation: (
      applicationId: string,
      validation: Required<Pick<StoredApplication, 'photoResults' | 'validPhotoCount' | 'rejectedPhotoCount' | 'validatedAt'>> & { status: 'validating' | 'invalid' },
    ) => writeIf(applicationId, validation, { expression: 'attribute_not_exists(photoResults)' }),

    /**
     * The review's wait with its task token, while no decision is recorded and (with an
     * `execution`) the review belongs to no other execution (decision 017); false otherwise.
     */
    waitForReview: (applicationId: string, wait: { taskToken: string; reviewWaitingSince: string; execution?: string }) =>
      writeIf(
        applicationId,
        { taskToken: wait.taskToken, status: 'pending_review', reviewWaitingSince: wait.reviewWaitingSince, reviewExecution: wait.execution },
        wait.execution
          ? { expression: 'attribute_not_exists(decision) AND (attribute_not_exists(reviewExecution) OR reviewExecution = :execution)', values: { ':execution': wait.execution } }
          : { expression: 'attribute_not_exists(decision)' },
      ),

    /** Forgets the review's task token once the workflow was resumed with it; false when the wait has another token now. */
    clearTaskToken: (applicationId: string, taskToken: string) =>
      writeIf(applicationId, {}, { expression: 'taskToken = :token', values: { ':token': taskToken } }, ['taskToken']),

    /** Forgets the AwaitIdentity step's task token once used; false when the step waits with another one now. */
    clearIdentityTaskToken: (applicationId: string, taskToken: string) =>
      writeIf(applicationId, {}, { expression: 'identityTaskToken = :t', values: { ':t': taskToken } }, ['identityTaskToken']),

    /**
     * A failed application retried: back to `status` without its failure, while it is still the
     * failure of `failedAt` (two retries at once start one); false otherwise.
     */
    markRetried: (applicationId: string, failedAt: string, retry: { status: ApplicationStatus; retryCount: number; reviewExecution?: string }) =>
      writeIf(applicationId, retry, { expression: '#st = :failed AND failure.#at = :at', names: { '#st': 'status', '#at': 'at' }, values: { ':failed': 'failed', ':at': failedAt } }, ['failure']),

    /**
     * Appends an entry to the application's history (`HISTORY#{at}#{n}`), only while the
     * application exists: a workflow step still running when the person is erased writes nothing
     * back about them (the erasure has removed the application and its history).
     */
    async addHistory(applicationId: string, event: string, extra: { by?: string; note?: string } = {}): Promise<void> {
      const at = now().toISOString();
      try {
        await doc.send(
          new TransactWriteCommand({
            TransactItems: [
              { ConditionCheck: { TableName: tableName, Key: foundingKeys.application(applicationId), ConditionExpression: 'attribute_exists(pk)' } },
              { Put: { TableName: tableName, Item: { ...foundingKeys.history(applicationId, at, randomBytes(3).toString('hex')), at, event, ...extra } } },
            ],
          }),
        );
      } catch (err) {
        if (cancellationReasons(err)?.[0] !== 'ConditionalCheckFailed') throw err;
        log.warn('history of an application that no longer exists is not written', { applicationId, event });
      }
    },

    /**
     * Records a reviewer's decision against the task token the application is waiting with, and
     * its history entry, in one transaction. False when the application is no longer waiting with
     * that token (decided meanwhile, or the wait re-armed with a new token). The token stays until
     * the workflow has been resumed with it (decision 017).
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
                  UpdateExpression: 'SET decision = :decision, #status = :status',
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

/** An application of the address is being validated: erasure waits until its photos are written. */
export class ApplicationBeingValidatedError extends Error {
  constructor() {
    super('an application of this address is being validated');
    this.name = 'ApplicationBeingValidated';
  }
}

/** What erasing an address removed from the founding table, and the photo folders it leads to. */
export interface FoundingErasure {
  applicationIds: string[];
  /** Upload folders (`pending/{folder}/`) of the address's sessions. */
  uploadFolders: string[];
  items: number;
}

/** What erasing an address will remove, found before anything is: the founding items, and the talent its accepted applications became. */
export interface FoundingErasurePlan {
  applicationIds: string[];
  uploadFolders: string[];
  /** The catalog talent of the address's accepted applications (their payouts and statements are erased too). */
  talentIds: string[];
  /** The Stripe Identity VerificationSessions of its applications: redacted at Stripe before the items go (decision 056). */
  verificationSessionIds: string[];
  items: Array<Record<string, unknown>>;
}

/**
 * Erasure (decision 019), the reading half: every founding item of the address: its
 * applications with their history and sent-email records, its address lock, its upload
 * sessions' drafts (found by the address hash they keep, or from the application), and any
 * other item naming one of its applications (confirmation links, submissions, the ID
 * verification's session index items, the image hashes), with the verification sessions to
 * redact at Stripe. The spot an
 * accepted application took stays counted (its `SPOT#` item holds no personal data). Throws
 * ApplicationBeingValidatedError, having changed nothing, while an application's photos are
 * being written. Reading first lets the caller erase what the applications lead to (a talent's
 * payouts) while they can still be found, so an erasure that fails part way finds them again.
 */
export async function planFoundingErasure(doc: DynamoDBDocumentClient, tableName: string, email: string): Promise<FoundingErasurePlan> {
  const lock = foundingKeys.emailLock(email);
  const found = await scanItems(doc, tableName, {
    expression: 'email = :e OR (pk = :lock AND sk = :lockSk) OR addressHash = :h',
    values: { ':e': email, ':lock': lock.pk, ':lockSk': lock.sk, ':h': addressHashOf(email) },
  });
  // Its photos are being written: erasing now would leave the ones written after.
  if (found.some((i) => String(i.pk).startsWith('APP#') && i.sk === 'APPLICATION' && i.status === 'validating')) throw new ApplicationBeingValidatedError();
  const applicationIds = new Set<string>();
  const folders = new Set<string>();
  const talentIds = new Set<string>();
  for (const item of found) {
    const pk = String(item.pk);
    if (pk.startsWith('APP#') && item.sk === 'APPLICATION') {
      applicationIds.add(pk.slice('APP#'.length));
      if (typeof item.uploadFolder === 'string') folders.add(item.uploadFolder);
      if (typeof item.talentId === 'string' && item.talentId) talentIds.add(item.talentId);
    }
    if (pk.startsWith('DRAFT#')) folders.add(pk.slice('DRAFT#'.length));
  }
  const toDelete = new Map<string, Record<string, unknown>>();
  const add = (items: Array<Record<string, unknown>>) => items.forEach((i) => toDelete.set(`${i.pk}\n${i.sk}`, i));
  add(found);
  const partition = async (pk: string) => {
    let start: Record<string, unknown> | undefined;
    do {
      const page = await doc.send(
        new QueryCommand({ TableName: tableName, KeyConditionExpression: 'pk = :pk', ExpressionAttributeValues: { ':pk': pk }, ExclusiveStartKey: start, ConsistentRead: true }),
      );
      add(page.Items ?? []);
      start = page.LastEvaluatedKey;
    } while (start);
  };
  for (const id of applicationIds) {
    await partition(foundingKeys.applicationPk(id));
    // Items elsewhere that name the application (links, submissions), except its spot.
    add((await scanItems(doc, tableName, { expression: 'applicationId = :id AND pk <> :spot', values: { ':id': id, ':spot': foundingKeys.spot(id).pk } })));
  }
  for (const folder of folders) await partition(foundingKeys.draft(folder));
  // Every session we created for them: from the applications' attempts and the sessions' index items.
  const sessions = new Set<string>();
  for (const item of toDelete.values()) {
    const pk = String(item.pk);
    if (pk.startsWith('APP#') && item.sk === 'APPLICATION') for (const a of ((item.verification as { attempts?: Array<{ sessionId: string }> } | undefined)?.attempts ?? [])) sessions.add(a.sessionId);
    if (pk.startsWith('SESSION#') && item.sk === 'VERIFICATION') sessions.add(pk.slice('SESSION#'.length));
  }
  return { applicationIds: [...applicationIds], uploadFolders: [...folders], talentIds: [...talentIds], verificationSessionIds: [...sessions], items: [...toDelete.values()] };
}

/** Erasure, the deleting half: removes the items the plan found. The photos under its application ids and folders are the caller's to delete. */
export async function eraseFoundingItems(doc: DynamoDBDocumentClient, tableName: string, plan: FoundingErasurePlan): Promise<FoundingErasure> {
  const items = await deleteItems(doc, tableName, ['pk', 'sk'], plan.items);
  return { applicationIds: plan.applicationIds, uploadFolders: plan.uploadFolders, items };
}
