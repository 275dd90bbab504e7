// The item operations the stores share (docs/architecture.md#folders): a consistent get with the
// key attributes taken off, a put that holds only while the key is free, and an update of an
// existing item under an optional condition. A store builds its conditions itself, from its own
// rules, and gives its callers methods named for what they do: no service passes an expression.
import { GetCommand, PutCommand, UpdateCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { isConditionFailure } from './errors';

/** A condition of a write: an expression over the item with its own names and values, built by a store only. */
export interface Condition {
  expression: string;
  names?: Record<string, string>;
  values?: Record<string, unknown>;
}

/** A table's item key (`pk`/`sk`, or a table's own key attributes). */
export type ItemKey = Record<string, unknown>;

/**
 * `SET` and `REMOVE` clauses for `fields` (an `undefined` value removes its attribute), their
 * names and values added to `names` and `values` under `#u{n}` and `:u{n}`. For a write in a
 * transaction; `update` below uses it for a single one.
 */
export function updateExpression(fields: Record<string, unknown>, names: Record<string, string>, values: Record<string, unknown>): string {
  const set: string[] = [];
  const remove: string[] = [];
  Object.entries(fields).forEach(([field, value], i) => {
    names[`#u${i}`] = field;
    if (value === undefined) remove.push(`#u${i}`);
    else {
      values[`:u${i}`] = value;
      set.push(`#u${i} = :u${i}`);
    }
  });
  return [set.length ? `SET ${set.join(', ')}` : '', remove.length ? `REMOVE ${remove.join(', ')}` : ''].filter(Boolean).join(' ');
}

export interface TableItemsOptions {
  /** The attributes only the table needs (keys, index keys), taken off every item read. */
  keyFields: readonly string[];
  /** The partition key attribute, whose existence `putNew` and `update` test (default `pk`). */
  partitionKey?: string;
}

/**
 * The shared item operations on one table, for a store to build its methods on:
 *
 * - `get(key)`: the item read consistently without its key fields, or undefined;
 * - `putNew(item)`: writes the item only while its key is free; false when it exists;
 * - `update(key, fields, condition?)`: sets `fields` (`undefined` removes one) on an existing
 *   item while `condition` holds; false when the item is missing or the condition refuses it;
 * - `strip(item)`: an item read another way (a query) without its key fields.
 *
 * Refusals are told apart by the error's name and a transaction's cancellation reasons
 * (`isConditionFailure`), never by its message.
 */
export function tableItems(doc: DynamoDBDocumentClient, tableName: string, options: TableItemsOptions) {
  const partitionKey = options.partitionKey ?? 'pk';
  const strip = <T>(item: Record<string, unknown>): T => Object.fromEntries(Object.entries(item).filter(([k]) => !options.keyFields.includes(k))) as T;

  return {
    strip,

    async get<T>(key: ItemKey): Promise<T | undefined> {
      const out = await doc.send(new GetCommand({ TableName: tableName, Key: key, ConsistentRead: true }));
      return out.Item ? strip<T>(out.Item) : undefined;
    },

    async putNew(item: Record<string, unknown>): Promise<boolean> {
      try {
        await doc.send(new PutCommand({ TableName: tableName, Item: item, ConditionExpression: `attribute_not_exists(${partitionKey})` }));
        return true;
      } catch (err) {
        if (isConditionFailure(err)) return false;
        throw err;
      }
    },

    async update(key: ItemKey, fields: Record<string, unknown>, condition?: Condition): Promise<boolean> {
      const names: Record<string, string> = { ...condition?.names };
      const values: Record<string, unknown> = { ...condition?.values };
      try {
        await doc.send(
          new UpdateCommand({
            TableName: tableName,
            Key: key,
            UpdateExpression: updateExpression(fields, names, values),
            ConditionExpression: `attribute_exists(${partitionKey})${condition ? ` AND (${condition.expression})` : ''}`,
            ExpressionAttributeNames: names,
            ExpressionAttributeValues: Object.keys(values).length ? values : undefined,
          }),
        );
        return true;
      } catch (err) {
        if (isConditionFailure(err)) return false;
        throw err;
      }
    },
  };
}
