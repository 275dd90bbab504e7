import { createHash, randomUUID } from 'node:crypto';
import { DeleteCommand, PutCommand, ScanCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { ErasureCounts } from '../../events/erasure';

/*
 * Erasure (GDPR Art. 17, decision 019): the erasure records table, and the one scan-and-delete
 * the domain stores use to remove a person's items. Erasure is rare and done by an admin, so a
 * filtered scan of each table is the honest way to find every item that names the address,
 * including ones no index leads to (confirmation links, per-address counters).
 */

/** A filter on a table's items: a DynamoDB filter expression with its names and values. */
export interface ItemFilter {
  expression: string;
  names?: Record<string, string>;
  values: Record<string, unknown>;
  /** Only these attributes of each item (a large table's items need not travel whole). */
  attributes?: string[];
}

/** Every item matching `filter`, read whole or as `filter.attributes` (the caller decides what else it leads to). */
export async function scanItems(doc: DynamoDBDocumentClient, tableName: string, filter: ItemFilter): Promise<Array<Record<string, unknown>>> {
  const items: Array<Record<string, unknown>> = [];
  const projected = Object.fromEntries((filter.attributes ?? []).map((name, i) => [`#p${i}`, name]));
  const names = { ...filter.names, ...projected };
  let start: Record<string, unknown> | undefined;
  do {
    const page = await doc.send(
      new ScanCommand({
        TableName: tableName,
        FilterExpression: filter.expression,
        ...(filter.attributes?.length ? { ProjectionExpression: Object.keys(projected).join(', ') } : {}),
        ExpressionAttributeNames: Object.keys(names).length ? names : undefined,
        ExpressionAttributeValues: filter.values,
        ExclusiveStartKey: start,
        ConsistentRead: true,
      }),
    );
    items.push(...(page.Items ?? []));
    start = page.LastEvaluatedKey;
  } while (start);
  return items;
}

/** Deletes the items by their key attributes; returns how many. */
export async function deleteItems(doc: DynamoDBDocumentClient, tableName: string, keyNames: string[], items: Array<Record<string, unknown>>): Promise<number> {
  for (const item of items) {
    await doc.send(new DeleteCommand({ TableName: tableName, Key: Object.fromEntries(keyNames.map((k) => [k, item[k]])) }));
  }
  return items.length;
}

/** An address as erasure records keep it: a one-way hash, to answer "was X erased?", never to read. */
const erasedAddressHash = (email: string) => createHash('sha256').update(`erasure:${email.trim().toLowerCase()}`).digest('hex');

export interface ErasureRecord {
  id: string;
  addressHash: string;
  erasedAt: string;
  /** The admin who erased (their user id, not their address). */
  erasedBy: string;
  removed: ErasureCounts;
}

export function erasureStore(doc: DynamoDBDocumentClient, tableName: string) {
  return {
    /** Records that an erasure was done; the address itself is never stored. */
    async record(email: string, erasedBy: string, removed: ErasureCounts, now: Date): Promise<ErasureRecord> {
      const record: ErasureRecord = { id: randomUUID(), addressHash: erasedAddressHash(email), erasedAt: now.toISOString(), erasedBy, removed };
      await doc.send(new PutCommand({ TableName: tableName, Item: { pk: `ERASURE#${record.id}`, ...record } }));
      return record;
    },

    /** Records of erasures of an address (by its hash). */
    async recordsFor(email: string): Promise<ErasureRecord[]> {
      const items = await scanItems(doc, tableName, { expression: 'addressHash = :h', values: { ':h': erasedAddressHash(email) } });
      return items.map(({ pk: _pk, ...r }) => r as unknown as ErasureRecord);
    },

    /**
     * Removes an address's idempotency records (the kept answers of its requests): any record
     * whose kept answer or key names the address. Lives here because the idempotency table
     * belongs to no domain.
     */
    async eraseIdempotencyRecords(idempotencyTable: string, email: string): Promise<number> {
      const items = await scanItems(doc, idempotencyTable, {
        expression: 'contains(#data, :e) OR contains(#id, :e)',
        names: { '#data': 'data', '#id': 'id' },
        values: { ':e': email },
      });
      return deleteItems(doc, idempotencyTable, ['id'], items);
    },
  };
}
