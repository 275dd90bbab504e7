// The Reports table (docs/product.md#reports-and-takedown, decision 058): the cases, the files
// reported, and the fingerprints of the images we delivered with their index entries (decision
// 059). The only code that reads and writes its items.
import { BatchGetCommand, type BatchGetCommandOutput, BatchWriteCommand, QueryCommand, ScanCommand, UpdateCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { ReportAction, ReportCategory, ReporterRole, ReportStatus } from '../../events/report-values';
import type { ReportDecision, ReportHistoryEntry, ReportMatch } from '../../events/reports';
import { isConditionFailure } from '../shared/errors';
import { tableItems } from '../shared/store';
import type { Fingerprint } from './matching';

/*
 * Keys: a case `REPORT#<reference>`/`CASE`; a reported file `FILE#<fileId>`/`FILE`; a delivered
 * image's fingerprint `FP#<licenseId>`/`FP`; an index entry `IDX#<index key>`/`<licenseId>`.
 */
const keys = {
  report: (reference: string) => ({ pk: `REPORT#${reference}`, sk: 'CASE' }),
  file: (fileId: string) => ({ pk: `FILE#${fileId}`, sk: 'FILE' }),
  fingerprint: (licenseId: string) => ({ pk: `FP#${licenseId}`, sk: 'FP' }),
  index: (key: string, licenseId: string) => ({ pk: `IDX#${key}`, sk: licenseId }),
};
const REPORT_PREFIX = 'REPORT#';
const KEY_FIELDS = ['pk', 'sk'] as const;

/** A file sent to `POST /reports/files`: where its bytes are (the private bucket) and what it matched. */
export interface ReportFile {
  fileId: string;
  key: string;
  size: number;
  contentType: string;
  uploadedAt: string;
  match: ReportMatch;
  /** The case it was attached to, once it was. */
  reference?: string;
}

/** A case as it is stored. */
export interface ReportCase {
  reference: string;
  category: ReportCategory;
  status: ReportStatus;
  receivedAt: string;
  dueAt: string;
  overdue: boolean;
  explanation: string;
  urls: string[];
  files: Array<Pick<ReportFile, 'fileId' | 'key' | 'size' | 'match'>>;
  reporter: { role: ReporterRole; name: string; email: string; signature: string };
  consentDenied?: boolean;
  depictedPerson?: string;
  /** The best match among the files. */
  match: ReportMatch;
  /** The image is withheld while the case waits (an intimate report that matched). */
  hidden: boolean;
  decisions: ReportDecision[];
  appeal?: { statement: string; at: string; accountId: string };
  history: ReportHistoryEntry[];
}

/** A delivered image's fingerprint, as indexed. */
export interface DeliveredFingerprint {
  licenseId: string;
  key: string;
  fingerprint: Fingerprint;
  indexedAt: string;
}

export type ReportStore = ReturnType<typeof reportStore>;

export function reportStore(doc: DynamoDBDocumentClient, tableName: string) {
  const items = tableItems(doc, tableName, { keyFields: KEY_FIELDS });

  /** Appends to the case's lists (history, decisions) and sets fields, while `condition` holds. */
  const change = async (
    reference: string,
    change: { set?: Record<string, unknown>; history: ReportHistoryEntry[]; decision?: ReportDecision; remove?: string[] },
    condition: { expression: string; values?: Record<string, unknown> },
  ): Promise<boolean> => {
    const names: Record<string, string> = { '#history': 'history', '#status': 'status' };
    const values: Record<string, unknown> = { ':history': change.history, ...condition.values };
    const sets = ['#history = list_append(#history, :history)'];
    Object.entries(change.set ?? {}).forEach(([field, value], i) => {
      names[`#s${i}`] = field;
      values[`:s${i}`] = value;
      sets.push(`#s${i} = :s${i}`);
    });
    if (change.decision) {
      names['#decisions'] = 'decisions';
      values[':decision'] = [change.decision];
      sets.push('#decisions = list_append(#decisions, :decision)');
    }
    const removes = (change.remove ?? []).map((field, i) => {
      names[`#r${i}`] = field;
      return `#r${i}`;
    });
    try {
      await doc.send(
        new UpdateCommand({
          TableName: tableName,
          Key: keys.report(reference),
          UpdateExpression: `SET ${sets.join(', ')}${removes.length ? ` REMOVE ${removes.join(', ')}` : ''}`,
          ConditionExpression: `attribute_exists(pk) AND (${condition.expression})`,
          ExpressionAttributeNames: names,
          ExpressionAttributeValues: values,
        }),
      );
      return true;
    } catch (err) {
      if (isConditionFailure(err)) return false;
      throw err;
    }
  };

  return {
    // ---- Files -----------------------------------------------------------------------------
    async putFile(file: ReportFile): Promise<void> {
      if (!(await items.putNew({ ...keys.file(file.fileId), ...file }))) throw new Error(`report file ${file.fileId} exists`);
    },
    getFile: (fileId: string) => items.get<ReportFile>(keys.file(fileId)),
    /** Marks a file attached to a case; false when it is another case's already. */
    attachFile: (fileId: string, reference: string) =>
      items.update(keys.file(fileId), { reference }, { expression: 'attribute_not_exists(#ref) OR #ref = :ref', names: { '#ref': 'reference' }, values: { ':ref': reference } }),

    // ---- Cases -----------------------------------------------------------------------------
    /** Writes a new case; false when its reference is taken (the caller draws another). */
    createCase: (report: ReportCase) => items.putNew({ ...keys.report(report.reference), ...report }),
    getCase: (reference: string) => items.get<ReportCase>(keys.report(reference)),
    /** Every case (the console's queue: a few hundred at most, sorted by the caller). */
    async listCases(): Promise<ReportCase[]> {
      const found: ReportCase[] = [];
      let start: Record<string, unknown> | undefined;
      do {
        const page = await doc.send(
          new ScanCommand({ TableName: tableName, FilterExpression: 'begins_with(pk, :report)', ExpressionAttributeValues: { ':report': REPORT_PREFIX }, ExclusiveStartKey: start }),
        );
        for (const item of page.Items ?? []) found.push(items.strip<ReportCase>(item));
        start = page.LastEvaluatedKey;
      } while (start);
      return found;
    },
    /** Adds to a case's history. */
    addHistory: (reference: string, entry: ReportHistoryEntry) => change(reference, { history: [entry] }, { expression: 'attribute_exists(#status)' }),
    /**
     * Records a decision while the case is in `expected` status (open, or appealed), moving it to
     * `status`; an appealed case also needs a reviewer other than `firstReviewer`. False when the
     * case moved on meanwhile or the reviewer is the first one.
     */
    recordDecision: (
      reference: string,
      decision: ReportDecision,
      move: { from: ReportStatus; to: ReportStatus; hidden?: boolean },
      entry: ReportHistoryEntry,
    ) =>
      change(
        reference,
        { set: { status: move.to, overdue: false, ...(move.hidden !== undefined ? { hidden: move.hidden } : {}) }, history: [entry], decision },
        { expression: '#status = :from', values: { ':from': move.from } },
      ),
    /** Reopens a decided case for a second reviewer; false unless it is decided and was never appealed. */
    recordAppeal: (reference: string, appeal: NonNullable<ReportCase['appeal']>, dueAt: string, entry: ReportHistoryEntry) =>
      change(
        reference,
        { set: { status: 'appealed', appeal, dueAt, overdue: false }, history: [entry] },
        { expression: '#status = :decided AND attribute_not_exists(appeal)', values: { ':decided': 'decided' } },
      ),
    /** Flags a waiting case overdue once; false when it was decided meanwhile or is flagged already. */
    markOverdue: (reference: string, at: string) =>
      change(
        reference,
        { set: { overdue: true }, history: [{ at, what: 'Overdue' }] },
        { expression: '#status IN (:open, :appealed) AND dueAt <= :at AND overdue = :no', values: { ':open': 'open', ':appealed': 'appealed', ':at': at, ':no': false } },
      ),

    // ---- Fingerprints of delivered images ---------------------------------------------------
    /** Keeps a delivered image's fingerprint and its index entries (each write repeatable). */
    async putFingerprint(delivered: DeliveredFingerprint, indexKeys: string[]): Promise<void> {
      const writes = [
        { PutRequest: { Item: { ...keys.fingerprint(delivered.licenseId), ...delivered } } },
        ...indexKeys.map((key) => ({ PutRequest: { Item: keys.index(key, delivered.licenseId) } })),
      ];
      for (let i = 0; i < writes.length; i += 25) {
        let batch: typeof writes | undefined = writes.slice(i, i + 25);
        for (let attempt = 0; batch?.length; attempt++) {
          if (attempt > 8) throw new Error('the index writes were not accepted');
          const out = await doc.send(new BatchWriteCommand({ RequestItems: { [tableName]: batch } }));
          batch = out.UnprocessedItems?.[tableName] as typeof writes | undefined;
        }
      }
    },
    getFingerprint: (licenseId: string) => items.get<DeliveredFingerprint>(keys.fingerprint(licenseId)),
    /** Several fingerprints at once (a hundred per read); the ones not found are left out. */
    async getFingerprints(licenseIds: string[]): Promise<DeliveredFingerprint[]> {
      const found: DeliveredFingerprint[] = [];
      for (let i = 0; i < licenseIds.length; i += 100) {
        let wanted: Array<Record<string, unknown>> | undefined = licenseIds.slice(i, i + 100).map((id) => keys.fingerprint(id));
        for (let attempt = 0; wanted?.length; attempt++) {
          if (attempt > 8) throw new Error('the fingerprint reads were not answered');
          const out: BatchGetCommandOutput = await doc.send(new BatchGetCommand({ RequestItems: { [tableName]: { Keys: wanted } } }));
          for (const item of out.Responses?.[tableName] ?? []) found.push(items.strip<DeliveredFingerprint>(item));
          wanted = out.UnprocessedKeys?.[tableName]?.Keys;
        }
      }
      return found;
    },
    /** The licenses indexed under any of the keys, each once. */
    async candidates(indexKeys: string[]): Promise<string[]> {
      const found = new Set<string>();
      const queue = [...indexKeys];
      const worker = async () => {
        for (let key = queue.shift(); key !== undefined; key = queue.shift()) {
          const out = await doc.send(
            new QueryCommand({ TableName: tableName, KeyConditionExpression: 'pk = :pk', ExpressionAttributeValues: { ':pk': `IDX#${key}` }, ProjectionExpression: 'sk', Limit: 50 }),
          );
          for (const item of out.Items ?? []) found.add(item.sk as string);
        }
      };
      await Promise.all(Array.from({ length: 8 }, worker));
      return [...found];
    },
  };
}

/** The history entry of a decision. */
export const decisionEntry = (action: ReportAction, by: string, at: string, afterAppeal: boolean): ReportHistoryEntry => ({
  at,
  what: `${afterAppeal ? 'Decided after appeal' : 'Decided'}: ${action}`,
  by,
});
