// The one data access of generations and licenses (layout in generations-keys.ts, decision 027).
// The API reads here; the workflow's steps write here.
import { DeleteCommand, GetCommand, PutCommand, QueryCommand, TransactWriteCommand, UpdateCommand, type DynamoDBDocumentClient, type TransactWriteCommandInput } from '@aws-sdk/lib-dynamodb';
import type { FailureCode, GenerationStatus, Style } from '../../events/generation-values';
import type { PlanId } from '../../events/plans';
import type { NoRoyaltyReason } from '../../events/royalty-values';
import type { ROYALTY_PLANS } from '../../events/talent-values';
import { cancellationReasons, ConflictError, isConditionFailure, ValidationError } from '../shared/errors';
import type { Condition } from '../shared/store';
import { ACCOUNT_INDEX, CREATED_INDEX, LIST_PARTITION, generationKeys, monthOf } from './keys';
import { queryAll } from '../shared/query-all';
import { ERASED_LICENSEE } from '../../events/erasure';
import { scanItems } from '../shared/erasure';
import type { PixelHash } from '../shared/pixel-hash';
import type { CreationBucket, QueueEntry } from './admission';

export interface GenerationImageRecord {
  index: number;
  licenseId: string;
  /** Key of the delivered file in the images bucket. */
  key: string;
}

export interface GenerationRecord {
  id: string;
  accountId: string;
  clientEmail: string;
  /** The client's full name when the generation started: the licensee. */
  licensee: string;
  /** The client's plan when the generation started: prices the credits for royalties. */
  planId: PlanId;
  talentId: string;
  talentName: string;
  prompt: string;
  style: Style;
  count: number;
  status: GenerationStatus;
  createdAt: string;
  updatedAt: string;
  creditsReserved: number;
  creditsSpent: number;
  predictionId?: string;
  executionName: string;
  steps: Array<{ step: string; at: string; detail?: string }>;
  images: GenerationImageRecord[];
  failure?: { code: FailureCode; message: string };
  /** When the client's data was erased: email, name and prompt are blank, the files deleted (decision 035). */
  erasedAt?: string;
  /** Licenses of this generation whose image the client may no longer see or download: revoked, or withheld while a report waits (decision 058). */
  withheldLicenses?: string[];
  /** When the start joined the admission queue, and when it was admitted to create its prediction (decision 065). */
  queuedAt?: string;
  admittedAt?: string;
  /** When it left the queue unadmitted, having waited too long. */
  admissionRefusedAt?: string;
}

export interface LicenseRecord {
  id: string;
  generationId: string;
  index: number;
  key: string;
  talentId: string;
  talentName: string;
  accountId: string;
  licensee: string;
  style: Style;
  scope: 'commercial';
  issuedAt: string;
  /** When the client's data was erased: the licensee reads ERASED_LICENSEE and the file is gone; the license stays valid (decision 035). */
  erasedAt?: string;
  /** The licensed image's pixel hash, computed when first needed and kept (it outlives the file). */
  pixelHash?: PixelHash;
  /** What the credit spent on this image was worth, in micro-dollars (royalties accrue on it). */
  creditValueMicros: number;
  /** When a reviewer revoked the license after a report (decision 058), the public reason, and the report's reference. */
  revokedAt?: string;
  revokedReason?: string;
  revokedBy?: string;
  /** The report (its reference) an intimate-image case withholds the image for while it waits. */
  withheldBy?: string;
}

/**
 * What a license's royalty accrual records of the credit it consumed (decision 036):
 * `creditValueMicros`, the value royalties accrue on (0 when the license earns nothing);
 * `promotional` for a promotional credit (valued at the cheapest paid credit at most); `noRoyalty`,
 * why it earns nothing (the talent's own account, a grant for testing). The statements read these
 * as `AccrualLine` (events/royalties.ts). `creditSource`, the purchase the paid credit came from,
 * lets a refund of it find the license (generationKeys.creditUse).
 */
export interface AccrualCredit {
  creditValueMicros: number;
  promotional?: true;
  noRoyalty?: NoRoyaltyReason;
  creditSource?: string;
}

/** One write of a transaction (the ledger's commit of the credit a license consumes adds its own). */
type StoreWrite = NonNullable<TransactWriteCommandInput['TransactItems']>[number];

export interface GenerationFilter {
  status?: GenerationStatus;
  talentId?: string;
  accountId?: string;
}

const DEFAULT_PAGE = 20;
const MAX_PAGE = 100;

const cursorOf = (key: Record<string, unknown> | undefined) => (key ? Buffer.from(JSON.stringify(key)).toString('base64url') : undefined);
function keyOfCursor(cursor: string | undefined): Record<string, unknown> | undefined {
  if (!cursor) return undefined;
  try {
    const key = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
    if (key && typeof key === 'object' && !Array.isArray(key)) return key;
  } catch {
    // falls through
  }
  throw new ValidationError('cursor is not one this list gave out');
}

function toRecord(item: Record<string, unknown>): GenerationRecord {
  const { pk: _pk, sk: _sk, accountKey: _a, listKey: _l, taskToken: _t, prediction: _p, stepsDone: _d, talentCounted: _c, predictionAttempt: _pa, modelFailureCounted: _m, withheldLicenses, ...rest } = item;
  // A string set: read as a Set, kept as a list.
  const withheld = withheldLicenses instanceof Set ? [...(withheldLicenses as Set<string>)] : [];
  return { ...rest, ...(withheld.length ? { withheldLicenses: withheld } : {}) } as unknown as GenerationRecord;
}
function toLicense(item: Record<string, unknown>): LicenseRecord {
  const { pk: _pk, sk: _sk, ...rest } = item;
  return rest as unknown as LicenseRecord;
}

type RoyaltyPlan = (typeof ROYALTY_PLANS)[number];

export type GenerationStore = ReturnType<typeof generationStore>;

/**
 * When a step may be recorded: the generation is in one of `from` (or in none of `notFrom`), and
 * records `prediction` when given.
 */
export type StepGuard = ({ from: readonly GenerationStatus[]; notFrom?: never } | { notFrom: readonly GenerationStatus[]; from?: never }) & { prediction?: string };

/** The condition of a guarded step, built here only. */
function guardCondition(guard: StepGuard): Condition {
  const statuses = guard.from ?? guard.notFrom;
  const values: Record<string, unknown> = Object.fromEntries(statuses.map((status, i) => [`:st${i}`, status]));
  const list = `#st IN (${statuses.map((_, i) => `:st${i}`).join(', ')})`;
  const parts = [...(guard.prediction === undefined ? [] : ['predictionId = :p']), guard.from ? list : `NOT ${list}`];
  return { expression: parts.join(' AND '), names: { '#st': 'status' }, values: { ...values, ...(guard.prediction === undefined ? {} : { ':p': guard.prediction }) } };
}

export function generationStore(doc: DynamoDBDocumentClient, tableName: string) {
  const licenseOf = async (id: string): Promise<LicenseRecord | undefined> => {
    const out = await doc.send(new GetCommand({ TableName: tableName, Key: generationKeys.license(id), ConsistentRead: true }));
    return out.Item ? toLicense(out.Item) : undefined;
  };
  /** Adds a license to (or deletes it from) its generation's withheld images. */
  const withholdOnGeneration = async (generationId: string, licenseId: string, change: 'ADD' | 'DELETE') => {
    try {
      await doc.send(
        new UpdateCommand({
          TableName: tableName,
          Key: generationKeys.generation(generationId),
          UpdateExpression: `${change} withheldLicenses :ids`,
          ConditionExpression: 'attribute_exists(pk)',
          ExpressionAttributeValues: { ':ids': new Set([licenseId]) },
        }),
      );
    } catch (err) {
      if (!isConditionFailure(err)) throw err;
    }
  };
  /**
   * The writes of one delivered image, for the transaction that also commits the credit it
   * consumes (DeliverImages, through the ledger's `commitOne`): the license
   * (`attribute_not_exists`), the talent's usage counter for the month, the royalty accrual
   * (the talent's `royaltyPlan` at issue, when given, and what `accrual` says of the credit),
   * and, given `image`, the image added to its generation's images.
   */
  const licenseWrites = (license: LicenseRecord, planId: PlanId, royaltyPlan: RoyaltyPlan | undefined, accrual: AccrualCredit, image?: GenerationImageRecord): StoreWrite[] => {
    const month = monthOf(license.issuedAt);
    const writes: StoreWrite[] = [
      { Put: { TableName: tableName, Item: { ...generationKeys.license(license.id), ...license }, ConditionExpression: 'attribute_not_exists(pk)' } },
      {
        Update: {
          TableName: tableName,
          Key: generationKeys.usage(license.talentId, month),
          UpdateExpression: 'ADD images :one SET talentId = :t, #month = :m',
          ExpressionAttributeNames: { '#month': 'month' },
          ExpressionAttributeValues: { ':one': 1, ':t': license.talentId, ':m': month },
        },
      },
      {
        Put: {
          TableName: tableName,
          Item: {
            ...generationKeys.accrual(license.talentId, month, license.id),
            licenseId: license.id,
            generationId: license.generationId,
            accountId: license.accountId,
            talentId: license.talentId,
            planId,
            creditValueMicros: accrual.creditValueMicros,
            ...(accrual.promotional ? { promotional: true } : {}),
            ...(accrual.noRoyalty ? { noRoyalty: accrual.noRoyalty } : {}),
            month,
            at: license.issuedAt,
            // The talent's plan when the license was issued (the statement's rate for it).
            ...(royaltyPlan ? { royaltyPlan } : {}),
            ...(accrual.creditSource ? { creditSource: accrual.creditSource } : {}),
          },
          ConditionExpression: 'attribute_not_exists(pk)',
        },
      },
    ];
    // A royalty earned on a purchase's credit: a refund of the purchase can find it.
    if (accrual.creditSource && accrual.creditValueMicros > 0 && !accrual.noRoyalty && !accrual.promotional) {
      writes.push({
        Put: {
          TableName: tableName,
          Item: {
            ...generationKeys.creditUse(license.accountId, accrual.creditSource, license.issuedAt, license.id),
            licenseId: license.id,
            talentId: license.talentId,
            month,
            at: license.issuedAt,
          },
          ConditionExpression: 'attribute_not_exists(pk)',
        },
      });
    }
    if (image) {
      writes.push({
        Update: {
          TableName: tableName,
          Key: generationKeys.generation(license.generationId),
          UpdateExpression: 'SET images = list_append(if_not_exists(images, :none), :image), updatedAt = :at',
          ConditionExpression: 'attribute_exists(pk)',
          ExpressionAttributeValues: { ':none': [], ':image': [image], ':at': license.issuedAt },
        },
      });
    }
    return writes;
  };

  return {
    /** Stores a new generation (status queued); ConflictError when the id exists. */
    async create(record: GenerationRecord): Promise<void> {
      try {
        await doc.send(
          new PutCommand({
            TableName: tableName,
            Item: {
              ...generationKeys.generation(record.id),
              accountKey: generationKeys.accountKey(record.accountId),
              listKey: LIST_PARTITION,
              ...record,
            },
            ConditionExpression: 'attribute_not_exists(pk)',
          }),
        );
      } catch (err) {
        if (isConditionFailure(err)) throw new ConflictError('This generation exists already.');
        throw err;
      }
    },

    async get(id: string): Promise<GenerationRecord | undefined> {
      const out = await doc.send(new GetCommand({ TableName: tableName, Key: generationKeys.generation(id), ConsistentRead: true }));
      return out.Item ? toRecord(out.Item) : undefined;
    },

    /** A client's generations, newest first. */
    async listByAccount(accountId: string, page: { limit?: number; cursor?: string } = {}): Promise<{ items: GenerationRecord[]; nextCursor?: string }> {
      const out = await doc.send(
        new QueryCommand({
          TableName: tableName,
          IndexName: ACCOUNT_INDEX,
          KeyConditionExpression: 'accountKey = :a',
          ExpressionAttributeValues: { ':a': generationKeys.accountKey(accountId) },
          ScanIndexForward: false,
          Limit: Math.min(MAX_PAGE, Math.max(1, page.limit ?? DEFAULT_PAGE)),
          ExclusiveStartKey: keyOfCursor(page.cursor),
        }),
      );
      return { items: (out.Items ?? []).map(toRecord), nextCursor: cursorOf(out.LastEvaluatedKey) };
    },

    /** Every generation matching the console's filters, newest first. */
    async listAll(filter: GenerationFilter = {}): Promise<GenerationRecord[]> {
      const conditions: string[] = [];
      const names: Record<string, string> = {};
      const values: Record<string, unknown> = { ':l': LIST_PARTITION };
      for (const [field, value] of Object.entries(filter)) {
        if (value === undefined) continue;
        conditions.push(`#${field} = :${field}`);
        names[`#${field}`] = field;
        values[`:${field}`] = value;
      }
      const items = await queryAll(doc, tableName, {
        IndexName: CREATED_INDEX,
        KeyConditionExpression: 'listKey = :l',
        ExpressionAttributeValues: values,
        ...(conditions.length ? { FilterExpression: conditions.join(' AND '), ExpressionAttributeNames: names } : {}),
        ScanIndexForward: false,
      });
      return items.map(toRecord);
    },

    async getLicense(id: string): Promise<LicenseRecord | undefined> {
      const out = await doc.send(new GetCommand({ TableName: tableName, Key: generationKeys.license(id) }));
      return out.Item ? toLicense(out.Item) : undefined;
    },

    /** Images made with a talent's likeness by UTC month, newest first. */
    async usageByMonth(talentId: string): Promise<Array<{ month: string; images: number }>> {
      const items = await queryAll(doc, tableName, {
        KeyConditionExpression: 'pk = :pk AND begins_with(sk, :p)',
        ExpressionAttributeValues: { ':pk': generationKeys.talent(talentId), ':p': generationKeys.usagePrefix },
        ScanIndexForward: false,
      });
      return items.map((i) => ({ month: String(i.sk).slice(generationKeys.usagePrefix.length), images: Number(i.images ?? 0) }));
    },

    /** How many generations have `status` (the dashboard's failed count): counted on the list index, no item is read out. */
    async countByStatus(status: GenerationStatus): Promise<number> {
      let count = 0;
      let start: Record<string, unknown> | undefined;
      do {
        const out = await doc.send(
          new QueryCommand({
            TableName: tableName,
            IndexName: CREATED_INDEX,
            KeyConditionExpression: 'listKey = :l',
            FilterExpression: '#status = :s',
            ExpressionAttributeNames: { '#status': 'status' },
            ExpressionAttributeValues: { ':l': LIST_PARTITION, ':s': status },
            Select: 'COUNT',
            ExclusiveStartKey: start,
          }),
        );
        count += out.Count ?? 0;
        start = out.LastEvaluatedKey;
      } while (start);
      return count;
    },

    // The workflow's writes follow (functions/generation/*).

    /** The generation with what only the workflow reads: the final prediction and the stored task token. */
    async getForWorkflow(
      id: string,
    ): Promise<(GenerationRecord & { prediction?: StoredPrediction; taskToken?: string; predictionAttempt?: PredictionAttempt }) | undefined> {
      const out = await doc.send(new GetCommand({ TableName: tableName, Key: generationKeys.generation(id), ConsistentRead: true }));
      if (!out.Item) return undefined;
      const { prediction, taskToken, predictionAttempt } = out.Item as { prediction?: StoredPrediction; taskToken?: string; predictionAttempt?: PredictionAttempt };
      return {
        ...toRecord(out.Item),
        ...(prediction ? { prediction } : {}),
        ...(typeof taskToken === 'string' ? { taskToken } : {}),
        ...(predictionAttempt ? { predictionAttempt } : {}),
      };
    },

    /**
     * Records that a prediction is about to be created (decision 038): only while no prediction id
     * is recorded, and only over the attempt the caller read (`previous`, none for the first), so
     * two invocations never both create. False when either does not hold.
     */
    async markPredictionAttempt(id: string, attempt: PredictionAttempt, previous?: PredictionAttempt): Promise<boolean> {
      try {
        await doc.send(
          new UpdateCommand({
            TableName: tableName,
            Key: generationKeys.generation(id),
            UpdateExpression: 'SET predictionAttempt = :a, updatedAt = :at',
            ConditionExpression: `attribute_exists(pk) AND attribute_not_exists(predictionId) AND ${previous ? 'predictionAttempt.n = :n' : 'attribute_not_exists(predictionAttempt)'}`,
            ExpressionAttributeValues: { ':a': attempt, ':at': attempt.at, ...(previous ? { ':n': previous.n } : {}) },
          }),
        );
        return true;
      } catch (err) {
        if (isConditionFailure(err)) return false;
        throw err;
      }
    },

    /**
     * Records a prediction id found for the generation (its signed start webhook, or Replicate's
     * list after a create whose answer was lost) unless another is recorded: false then.
     */
    async adoptPrediction(id: string, predictionId: string, at: string): Promise<boolean> {
      try {
        await doc.send(
          new UpdateCommand({
            TableName: tableName,
            Key: generationKeys.generation(id),
            UpdateExpression: 'SET predictionId = :p, updatedAt = :at',
            ConditionExpression: 'attribute_exists(pk) AND (attribute_not_exists(predictionId) OR predictionId = :p)',
            ExpressionAttributeValues: { ':p': predictionId, ':at': at },
          }),
        );
        return true;
      } catch (err) {
        if (isConditionFailure(err)) return false;
        throw err;
      }
    },

    /**
     * Appends one step to `steps` and sets `set` (and `updatedAt`) in one UpdateItem, only while
     * the generation is in one of `guard.from` (and records `guard.prediction`) when given: false
     * when it is not (a status never moves back). A step marked `once` is appended once however
     * often a retried step records it; the fields are set either way.
     */
    async recordStep(id: string, step: GenerationStepEntry & { once?: boolean }, set: Record<string, unknown> = {}, guard?: StepGuard): Promise<boolean> {
      const { once, ...entry } = step;
      const condition = guard && guardCondition(guard);
      const write = async (withStep: boolean) => {
        const names: Record<string, string> = { ...condition?.names };
        const values: Record<string, unknown> = { ':updatedAt': entry.at, ...condition?.values };
        const sets = ['updatedAt = :updatedAt'];
        Object.entries(set).forEach(([field, value], i) => {
          names[`#s${i}`] = field;
          values[`:s${i}`] = value;
          sets.push(`#s${i} = :s${i}`);
        });
        const conditions = ['attribute_exists(pk)', ...(condition ? [`(${condition.expression})`] : [])];
        let add = '';
        if (withStep) {
          sets.push('steps = list_append(if_not_exists(steps, :noSteps), :step)');
          values[':noSteps'] = [];
          values[':step'] = [entry];
          if (once) {
            add = ' ADD stepsDone :stepSet';
            values[':stepSet'] = new Set([entry.step]);
            values[':stepName'] = entry.step;
            conditions.push('NOT contains(stepsDone, :stepName)');
          }
        }
        await doc.send(
          new UpdateCommand({
            TableName: tableName,
            Key: generationKeys.generation(id),
            UpdateExpression: `SET ${sets.join(', ')}${add}`,
            ConditionExpression: conditions.join(' AND '),
            ...(Object.keys(names).length ? { ExpressionAttributeNames: names } : {}),
            ExpressionAttributeValues: values,
          }),
        );
      };
      try {
        await write(true);
        return true;
      } catch (err) {
        if (!isConditionFailure(err)) throw err;
      }
      if (!once) return false;
      // The step may be recorded already (a retry): set the fields without it, under the same condition.
      try {
        await write(false);
        return true;
      } catch (err) {
        if (isConditionFailure(err)) return false;
        throw err;
      }
    },

    /**
     * Stores the AwaitPrediction task token, unless the final prediction is stored already
     * (false: the caller resumes the execution itself).
     */
    async storeTaskToken(id: string, taskToken: string, at: string): Promise<boolean> {
      try {
        await doc.send(
          new UpdateCommand({
            TableName: tableName,
            Key: generationKeys.generation(id),
            UpdateExpression: 'SET taskToken = :t, updatedAt = :at',
            ConditionExpression: 'attribute_exists(pk) AND attribute_not_exists(prediction)',
            ExpressionAttributeValues: { ':t': taskToken, ':at': at },
          }),
        );
        return true;
      } catch (err) {
        if (isConditionFailure(err)) return false;
        throw err;
      }
    },

    /**
     * Stores a prediction's final state on its generation (from the webhook or a poll), and its
     * id when none is recorded yet (the webhook can come before StartPrediction records it).
     * Answers `mismatch` when the generation belongs to another prediction (nothing changed),
     * otherwise the task token an execution waits with, if one is stored.
     */
    async storeFinalPrediction(id: string, prediction: StoredPrediction, at: string): Promise<{ mismatch: true } | { mismatch: false; taskToken?: string }> {
      try {
        const out = await doc.send(
          new UpdateCommand({
            TableName: tableName,
            Key: generationKeys.generation(id),
            UpdateExpression: 'SET prediction = if_not_exists(prediction, :p), predictionId = :id, updatedAt = :at',
            ConditionExpression: 'attribute_exists(pk) AND (attribute_not_exists(predictionId) OR predictionId = :id)',
            ExpressionAttributeValues: { ':p': prediction, ':id': prediction.id, ':at': at },
            ReturnValues: 'ALL_NEW',
          }),
        );
        const token = out.Attributes?.taskToken;
        return { mismatch: false, ...(typeof token === 'string' ? { taskToken: token } : {}) };
      } catch (err) {
        if (isConditionFailure(err)) return { mismatch: true };
        throw err;
      }
    },

    // ---- Admission under Replicate's creation limit (decision 065) ------------------------------

    /**
     * Puts a start in the admission queue: the time it joined on the generation and the queue's
     * entry for it, in one transaction, only while the generation is not admitted nor refused and
     * has not joined yet. `admitted` when it was admitted meanwhile, `moved` when another
     * invocation put it in the queue first (either way the caller reads it again).
     */
    async joinAdmissionQueue(generation: { id: string; accountId: string }, queuedAt: string, cost: number): Promise<'queued' | 'admitted' | 'moved'> {
      try {
        await doc.send(
          new TransactWriteCommand({
            TransactItems: [
              {
                Update: {
                  TableName: tableName,
                  Key: generationKeys.generation(generation.id),
                  UpdateExpression: 'SET queuedAt = :q, updatedAt = :q',
                  ConditionExpression: 'attribute_exists(pk) AND attribute_not_exists(admittedAt) AND attribute_not_exists(admissionRefusedAt) AND attribute_not_exists(queuedAt)',
                  ExpressionAttributeValues: { ':q': queuedAt },
                },
              },
              {
                Put: {
                  TableName: tableName,
                  Item: { ...generationKeys.admissionEntry(generation.accountId, queuedAt, generation.id), accountId: generation.accountId, queuedAt, generationId: generation.id, cost },
                },
              },
            ],
          }),
        );
        return 'queued';
      } catch (err) {
        if (cancellationReasons(err)?.[0] !== 'ConditionalCheckFailed') throw err;
        const now = await doc.send(new GetCommand({ TableName: tableName, Key: generationKeys.generation(generation.id), ConsistentRead: true }));
        if (!now.Item) throw err;
        return now.Item.admittedAt ? 'admitted' : 'moved';
      }
    },

    /** The creation bucket and every start waiting for admission (a consistent read of the one partition). */
    async admissionQueue(): Promise<{ bucket?: CreationBucket; entries: QueueEntry[] }> {
      const items = await queryAll(doc, tableName, {
        KeyConditionExpression: 'pk = :pk',
        ExpressionAttributeValues: { ':pk': generationKeys.admissionPartition },
        ConsistentRead: true,
      });
      const bucket = items.find((i) => i.sk === generationKeys.admissionBucket.sk);
      return {
        ...(bucket ? { bucket: { millitokens: bucket.millitokens as number, at: bucket.at as number, ...(typeof bucket.lastClient === 'string' ? { lastClient: bucket.lastClient } : {}) } } : {}),
        entries: items
          .filter((i) => String(i.sk).startsWith(generationKeys.admissionEntryPrefix))
          .map((i) => ({ accountId: i.accountId as string, queuedAt: i.queuedAt as string, generationId: i.generationId as string, cost: typeof i.cost === 'number' ? i.cost : 1 })),
      };
    },

    /**
     * Admits one waiting start: in one transaction the bucket goes from `before` (as read; none
     * when it was never written) to `after` (its creations taken, the client served last), the
     * start leaves the queue and its generation is marked admitted. `contended` when the bucket
     * changed since it was read (another invocation admitted meanwhile: read it again), `gone`
     * when the start is no longer waiting (admitted or refused meanwhile; its entry is removed).
     */
    async admit(entry: QueueEntry, before: CreationBucket | undefined, after: CreationBucket, at: string): Promise<'admitted' | 'contended' | 'gone'> {
      const entryKey = generationKeys.admissionEntry(entry.accountId, entry.queuedAt, entry.generationId);
      try {
        await doc.send(
          new TransactWriteCommand({
            TransactItems: [
              {
                Put: {
                  TableName: tableName,
                  Item: { ...generationKeys.admissionBucket, millitokens: after.millitokens, at: after.at, lastClient: after.lastClient },
                  ConditionExpression: before ? 'millitokens = :m AND #at = :a' : 'attribute_not_exists(pk)',
                  ...(before ? { ExpressionAttributeNames: { '#at': 'at' }, ExpressionAttributeValues: { ':m': before.millitokens, ':a': before.at } } : {}),
                },
              },
              { Delete: { TableName: tableName, Key: entryKey, ConditionExpression: 'attribute_exists(pk)' } },
              {
                Update: {
                  TableName: tableName,
                  Key: generationKeys.generation(entry.generationId),
                  UpdateExpression: 'SET admittedAt = :at, updatedAt = :at',
                  ConditionExpression: 'attribute_exists(pk) AND attribute_not_exists(admittedAt) AND attribute_not_exists(admissionRefusedAt)',
                  ExpressionAttributeValues: { ':at': at },
                },
              },
            ],
          }),
        );
        return 'admitted';
      } catch (err) {
        const reasons = cancellationReasons(err);
        if (!reasons) throw err;
        if (reasons[0] === 'ConditionalCheckFailed' || reasons.includes('TransactionConflict')) return 'contended';
        if (reasons[1] === 'ConditionalCheckFailed') return 'gone';
        if (reasons[2] === 'ConditionalCheckFailed') {
          // A stale entry of a start that is admitted or refused already.
          await doc.send(new DeleteCommand({ TableName: tableName, Key: entryKey }));
          return 'gone';
        }
        throw err;
      }
    },

    /**
     * Takes a start that waited too long out of the queue: its entry goes and the generation is
     * marked refused, unless it was admitted meanwhile (false: the caller goes on to create).
     */
    async refuseAdmission(generation: { id: string; accountId: string }, queuedAt: string, at: string): Promise<boolean> {
      try {
        await doc.send(
          new TransactWriteCommand({
            TransactItems: [
              {
                Update: {
                  TableName: tableName,
                  Key: generationKeys.generation(generation.id),
                  UpdateExpression: 'SET admissionRefusedAt = :at, updatedAt = :at',
                  ConditionExpression: 'attribute_exists(pk) AND attribute_not_exists(admittedAt)',
                  ExpressionAttributeValues: { ':at': at },
                },
              },
              { Delete: { TableName: tableName, Key: generationKeys.admissionEntry(generation.accountId, queuedAt, generation.id) } },
            ],
          }),
        );
        return true;
      } catch (err) {
        if (cancellationReasons(err)?.[0] === 'ConditionalCheckFailed') return false;
        throw err;
      }
    },

    // ---- Reports' outcomes (decision 058) ------------------------------------------------------
    /**
     * Withholds a license's image (thumbnail, the client's view and download) for a waiting
     * intimate-image report. False when there is no such license.
     */
    async withholdLicense(licenseId: string, reference: string): Promise<boolean> {
      const license = await licenseOf(licenseId);
      if (!license) return false;
      await doc.send(new UpdateCommand({ TableName: tableName, Key: generationKeys.license(licenseId), UpdateExpression: 'SET withheldBy = :ref', ExpressionAttributeValues: { ':ref': reference } }));
      await withholdOnGeneration(license.generationId, licenseId, 'ADD');
      return true;
    },
    /** Ends the report's withholding (it was decided); the image shows again unless the license is revoked. */
    async releaseLicense(licenseId: string, reference: string): Promise<boolean> {
      const license = await licenseOf(licenseId);
      if (!license || license.withheldBy !== reference) return false;
      try {
        await doc.send(
          new UpdateCommand({ TableName: tableName, Key: generationKeys.license(licenseId), UpdateExpression: 'REMOVE withheldBy', ConditionExpression: 'withheldBy = :ref', ExpressionAttributeValues: { ':ref': reference } }),
        );
      } catch (err) {
        if (isConditionFailure(err)) return false;
        throw err;
      }
      if (!license.revokedAt) await withholdOnGeneration(license.generationId, licenseId, 'DELETE');
      return true;
    },
    /** Revokes a license once (a repeat keeps the first date); its image is withheld from the client for good. */
    async revokeLicense(licenseId: string, revocation: { revokedAt: string; reason: string; reference: string }): Promise<boolean> {
      const license = await licenseOf(licenseId);
      if (!license) return false;
      await doc.send(
        new UpdateCommand({
          TableName: tableName,
          Key: generationKeys.license(licenseId),
          UpdateExpression: 'SET revokedAt = if_not_exists(revokedAt, :at), revokedReason = if_not_exists(revokedReason, :reason), revokedBy = if_not_exists(revokedBy, :ref) REMOVE withheldBy',
          ExpressionAttributeValues: { ':at': revocation.revokedAt, ':reason': revocation.reason, ':ref': revocation.reference },
        }),
      );
      await withholdOnGeneration(license.generationId, licenseId, 'ADD');
      return true;
    },
    /** Takes back the revocation the report made (a second reviewer dismissed it on appeal). */
    async reinstateLicense(licenseId: string, reference: string): Promise<boolean> {
      const license = await licenseOf(licenseId);
      if (!license || license.revokedBy !== reference) return false;
      try {
        await doc.send(
          new UpdateCommand({
            TableName: tableName,
            Key: generationKeys.license(licenseId),
            UpdateExpression: 'REMOVE revokedAt, revokedReason, revokedBy, withheldBy',
            ConditionExpression: 'revokedBy = :ref',
            ExpressionAttributeValues: { ':ref': reference },
          }),
        );
      } catch (err) {
        if (isConditionFailure(err)) return false;
        throw err;
      }
      await withholdOnGeneration(license.generationId, licenseId, 'DELETE');
      return true;
    },

    /** Whether a license exists, read strongly consistent (a retried delivery skips the images it delivered). */
    async hasLicense(id: string): Promise<boolean> {
      const out = await doc.send(new GetCommand({ TableName: tableName, Key: generationKeys.license(id), ConsistentRead: true, ProjectionExpression: 'pk' }));
      return out.Item !== undefined;
    },

    licenseWrites,

    /**
     * A license, its usage count and its accrual in one transaction, without a credit (statement
     * fixtures; deliveries write them with their credit through `licenseWrites`). False when the
     * license exists: nothing is written twice. Without `accrual`, the accrual is of a paid credit
     * worth the license's `creditValueMicros`.
     */
    async addLicense(license: LicenseRecord, planId: PlanId, royaltyPlan?: RoyaltyPlan, accrual: AccrualCredit = { creditValueMicros: license.creditValueMicros }): Promise<boolean> {
      try {
        await doc.send(new TransactWriteCommand({ TransactItems: licenseWrites(license, planId, royaltyPlan, accrual) }));
        return true;
      } catch (err) {
        if (cancellationReasons(err)?.[0] === 'ConditionalCheckFailed') return false;
        throw err;
      }
    },

    /**
     * Marks a generation succeeded with its images and spent credits, and adds the delivered
     * images (or `talent.counted` of them: none made by the talent's own account) to the talent's
     * `generationCount` in the catalog, in one transaction that happens once (false when it
     * already did). A talent no longer in the catalog is not counted.
     */
    async finishDelivered(
      id: string,
      result: { images: GenerationImageRecord[]; creditsSpent: number; step: GenerationStepEntry },
      talent: { tableName: string; id: string; counted?: number },
    ): Promise<boolean> {
      const finish = {
        TableName: tableName,
        Key: generationKeys.generation(id),
        UpdateExpression:
          'SET #status = :succeeded, images = :images, creditsSpent = :spent, talentCounted = :true, updatedAt = :at, steps = list_append(if_not_exists(steps, :none), :step) REMOVE taskToken',
        ConditionExpression: 'attribute_exists(pk) AND attribute_not_exists(talentCounted)',
        ExpressionAttributeNames: { '#status': 'status' },
        ExpressionAttributeValues: {
          ':succeeded': 'succeeded',
          ':images': result.images,
          ':spent': result.creditsSpent,
          ':true': true,
          ':at': result.step.at,
          ':none': [],
          ':step': [result.step],
        },
      };
      try {
        await doc.send(
          new TransactWriteCommand({
            TransactItems: [
              { Update: finish },
              {
                Update: {
                  TableName: talent.tableName,
                  Key: { id: talent.id },
                  UpdateExpression: 'ADD generationCount :n',
                  ConditionExpression: 'attribute_exists(id)',
                  ExpressionAttributeValues: { ':n': talent.counted ?? result.images.length },
                },
              },
            ],
          }),
        );
        return true;
      } catch (err) {
        const reasons = cancellationReasons(err);
        if (!reasons) throw err;
        if (reasons[0] === 'ConditionalCheckFailed') return false;
        if (reasons[1] !== 'ConditionalCheckFailed') throw err;
      }
      // The talent is no longer in the catalog: the generation is finished all the same.
      try {
        await doc.send(new UpdateCommand(finish));
        return true;
      } catch (err) {
        if (isConditionFailure(err)) return false;
        throw err;
      }
    },
  };
}

/** One entry of a generation's `steps`. */
export interface GenerationStepEntry {
  step: string;
  at: string;
  detail?: string;
}

/** A prediction's final state as the workflow keeps it on the generation. */
export interface StoredPrediction {
  id: string;
  status: string;
  output: string[];
  error: string | null;
}
/** StartPrediction's mark before it creates a prediction (decision 038): when, which attempt, and
 *  whether that create is known not to have been made (a clear refusal). */
export interface PredictionAttempt {
  at: string;
  n: number;
  notMade?: boolean;
}

// Erasure of a client (decision 035) and the license check's kept pixel hash. Functions of their
// own beside the store: the console's erasure and the license routes call them.

/** A client's generations and licenses, as erasure finds them. */
export interface ClientGenerations {
  /** The accounts the generations were made from. */
  accountIds: string[];
  generations: Array<{ id: string; accountId: string; status: GenerationStatus; updatedAt: string }>;
  licenses: Array<Pick<LicenseRecord, 'id' | 'accountId' | 'key' | 'erasedAt' | 'pixelHash'>>;
}

/**
 * Every generation made under the address (its `clientEmail`, in any case) and every license of
 * their accounts. Generations are redacted last, so an erasure that failed part way finds them,
 * and through them the rest, again. Two filtered scans: erasure is rare (decision 019).
 */
export async function findClientGenerations(doc: DynamoDBDocumentClient, tableName: string, email: string): Promise<ClientGenerations> {
  const address = email.trim().toLowerCase();
  const generationItems = await scanItems(doc, tableName, {
    expression: 'sk = :gen AND attribute_exists(clientEmail)',
    values: { ':gen': generationKeys.generation('').sk },
    attributes: ['id', 'accountId', 'clientEmail', 'status', 'updatedAt'],
  });
  const generations = generationItems
    .filter((i) => String(i.clientEmail ?? '').trim().toLowerCase() === address)
    .map((i) => ({ id: String(i.id), accountId: String(i.accountId), status: i.status as GenerationStatus, updatedAt: String(i.updatedAt) }));
  const accountIds = [...new Set(generations.map((g) => g.accountId))];
  const licenses: ClientGenerations['licenses'] = [];
  // DynamoDB's IN takes up to 100 values.
  for (let i = 0; i < accountIds.length; i += 100) {
    const ids = accountIds.slice(i, i + 100);
    const values = Object.fromEntries(ids.map((id, n) => [`:a${n}`, id]));
    const items = await scanItems(doc, tableName, {
      expression: `sk = :lic AND accountId IN (${Object.keys(values).join(', ')})`,
      values: { ':lic': generationKeys.license('').sk, ...values },
      attributes: ['id', 'accountId', 'key', 'erasedAt', 'pixelHash'],
    });
    for (const item of items) {
      licenses.push({
        id: String(item.id),
        accountId: String(item.accountId),
        key: String(item.key),
        ...(typeof item.erasedAt === 'string' ? { erasedAt: item.erasedAt } : {}),
        ...(item.pixelHash ? { pixelHash: item.pixelHash as PixelHash } : {}),
      });
    }
  }
  return { accountIds, generations, licenses };
}

/**
 * Takes the client out of a generation: email, licensee name and prompt become blank, the final
 * prediction (its outputs and error text) goes; the rest stays for accounting. Idempotent.
 */
export async function redactGeneration(doc: DynamoDBDocumentClient, tableName: string, id: string, at: string): Promise<void> {
  await doc.send(
    new UpdateCommand({
      TableName: tableName,
      Key: generationKeys.generation(id),
      UpdateExpression: 'SET #email = :blank, #licensee = :erased, #prompt = :blank, #erasedAt = if_not_exists(#erasedAt, :at) REMOVE #prediction',
      ConditionExpression: 'attribute_exists(pk)',
      ExpressionAttributeNames: { '#email': 'clientEmail', '#licensee': 'licensee', '#prompt': 'prompt', '#erasedAt': 'erasedAt', '#prediction': 'prediction' },
      ExpressionAttributeValues: { ':blank': '', ':erased': ERASED_LICENSEE, ':at': at },
    }),
  ).catch((err: unknown) => {
    if (!isConditionFailure(err)) throw err;
  });
}

/** Takes the client out of a license: it stays valid, issued to ERASED_LICENSEE. Idempotent. */
export async function redactLicense(doc: DynamoDBDocumentClient, tableName: string, id: string, at: string): Promise<void> {
  await doc.send(
    new UpdateCommand({
      TableName: tableName,
      Key: generationKeys.license(id),
      UpdateExpression: 'SET #licensee = :erased, #erasedAt = if_not_exists(#erasedAt, :at)',
      ConditionExpression: 'attribute_exists(pk)',
      ExpressionAttributeNames: { '#licensee': 'licensee', '#erasedAt': 'erasedAt' },
      ExpressionAttributeValues: { ':erased': ERASED_LICENSEE, ':at': at },
    }),
  ).catch((err: unknown) => {
    if (!isConditionFailure(err)) throw err;
  });
}

/** Keeps a license's pixel hash (computed once from its file). */
export async function keepLicensePixelHash(doc: DynamoDBDocumentClient, tableName: string, id: string, hash: PixelHash): Promise<void> {
  await doc.send(
    new UpdateCommand({
      TableName: tableName,
      Key: generationKeys.license(id),
      UpdateExpression: 'SET pixelHash = :h',
      ConditionExpression: 'attribute_exists(pk)',
      ExpressionAttributeValues: { ':h': hash },
    }),
  ).catch((err: unknown) => {
    if (!isConditionFailure(err)) throw err;
  });
}
