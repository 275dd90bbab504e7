// The one data access of generations and licenses (layout in generations-keys.ts, decision 027).
// The API reads here; the workflow's steps write here.
import { GetCommand, PutCommand, QueryCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { FailureCode, GenerationStatus, Style } from '../../events/generation-values';
import type { PlanId } from '../../events/plans';
import { ConflictError, isConditionFailure, ValidationError } from '../shared/errors';
import { ACCOUNT_INDEX, CREATED_INDEX, LIST_PARTITION, generationKeys } from './generations-keys';
import { queryAll } from './query-all';

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
  /** What the credit spent on this image was worth, in micro-dollars (royalties accrue on it). */
  creditValueMicros: number;
}

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
  const { pk: _pk, sk: _sk, accountKey: _a, listKey: _l, taskToken: _t, ...rest } = item;
  return rest as unknown as GenerationRecord;
}
function toLicense(item: Record<string, unknown>): LicenseRecord {
  const { pk: _pk, sk: _sk, ...rest } = item;
  return rest as unknown as LicenseRecord;
}

export type GenerationStore = ReturnType<typeof generationStore>;

export function generationStore(doc: DynamoDBDocumentClient, tableName: string) {
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
  };
}
