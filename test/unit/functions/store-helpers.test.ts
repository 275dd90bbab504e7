// The item operations the stores share (functions/shared/store.ts) and how a refused condition is
// told apart (functions/shared/errors.ts), against a fake client that answers like DynamoDB.
import { GetCommand, PutCommand, UpdateCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { isConditionFailure } from '../../../functions/shared/errors';
import { tableItems, updateExpression } from '../../../functions/shared/store';

const named = (name: string, extra: Record<string, unknown> = {}) => Object.assign(new Error('The conditional request failed'), { name, ...extra });

describe('isConditionFailure', () => {
  it("tells a refused condition by the error's name and a transaction's reasons, never its message", () => {
    expect(isConditionFailure(named('ConditionalCheckFailedException'))).toBe(true);
    expect(isConditionFailure(named('TransactionCanceledException', { CancellationReasons: [{ Code: 'None' }, { Code: 'ConditionalCheckFailed' }] }))).toBe(true);
    expect(isConditionFailure(named('TransactionCanceledException', { CancellationReasons: [{ Code: 'TransactionConflict' }, { Code: 'None' }] }))).toBe(false);
    expect(isConditionFailure(named('ValidationException'))).toBe(false);
    expect(isConditionFailure(new Error('ConditionalCheckFailedException'))).toBe(false);
  });
});

describe('updateExpression', () => {
  it('sets defined fields and removes undefined ones, under names and values of its own', () => {
    const names: Record<string, string> = { '#st': 'status' };
    const values: Record<string, unknown> = { ':s0': 'done' };
    expect(updateExpression({ status: 'ready', note: undefined, count: 2 }, names, values)).toBe('SET #u0 = :u0, #u2 = :u2 REMOVE #u1');
    expect(names).toEqual({ '#st': 'status', '#u0': 'status', '#u1': 'note', '#u2': 'count' });
    expect(values).toEqual({ ':s0': 'done', ':u0': 'ready', ':u2': 2 });
  });
});

/** A table of one key attribute `pk` that checks the conditions tableItems writes. */
function fakeTable() {
  const items = new Map<string, Record<string, unknown>>();
  const sent: unknown[] = [];
  const doc = {
    async send(command: GetCommand | PutCommand | UpdateCommand) {
      sent.push(command.input);
      if (command instanceof GetCommand) return { Item: items.get(String(command.input.Key!.pk)) };
      if (command instanceof PutCommand) {
        const pk = String(command.input.Item!.pk);
        if (items.has(pk)) throw named('ConditionalCheckFailedException');
        items.set(pk, command.input.Item!);
        return {};
      }
      const { Key, ExpressionAttributeValues: values = {} } = command.input;
      const item = items.get(String(Key!.pk));
      // The fake understands the one condition the test uses: `status = :from`.
      if (!item || (values[':from'] !== undefined && item.status !== values[':from'])) throw named('ConditionalCheckFailedException');
      items.set(String(Key!.pk), { ...item, status: values[':u0'] });
      return {};
    },
  } as unknown as DynamoDBDocumentClient;
  return { doc, items, sent };
}

describe('tableItems', () => {
  it('puts an item only while its key is free, and reads it back without its key fields', async () => {
    const { doc } = fakeTable();
    const table = tableItems(doc, 'T', { keyFields: ['pk', 'listKey'] });
    expect(await table.putNew({ pk: 'A', listKey: 'L', status: 'new' })).toBe(true);
    expect(await table.putNew({ pk: 'A', status: 'other' })).toBe(false);
    expect(await table.get({ pk: 'A' })).toEqual({ status: 'new' });
    expect(await table.get({ pk: 'B' })).toBeUndefined();
    expect(table.strip({ pk: 'A', listKey: 'L', x: 1 })).toEqual({ x: 1 });
  });

  it('updates an existing item while its condition holds; false when missing or refused', async () => {
    const { doc, sent } = fakeTable();
    const table = tableItems(doc, 'T', { keyFields: ['pk'] });
    await table.putNew({ pk: 'A', status: 'new' });
    const fromNew = { expression: '#st = :from', names: { '#st': 'status' }, values: { ':from': 'new' } };
    expect(await table.update({ pk: 'A' }, { status: 'checked' }, fromNew)).toBe(true);
    expect(sent.at(-1)).toMatchObject({ ConditionExpression: 'attribute_exists(pk) AND (#st = :from)', UpdateExpression: 'SET #u0 = :u0' });
    expect(await table.update({ pk: 'A' }, { status: 'checked' }, fromNew)).toBe(false);
    expect(await table.update({ pk: 'B' }, { status: 'checked' })).toBe(false);
    expect(await table.get({ pk: 'A' })).toEqual({ status: 'checked' });
  });

  it('passes on an error that is not a refused condition', async () => {
    const doc = { send: async () => Promise.reject(named('ProvisionedThroughputExceededException')) } as unknown as DynamoDBDocumentClient;
    const table = tableItems(doc, 'T', { keyFields: ['pk'] });
    await expect(table.putNew({ pk: 'A' })).rejects.toMatchObject({ name: 'ProvisionedThroughputExceededException' });
    await expect(table.update({ pk: 'A' }, { x: 1 })).rejects.toMatchObject({ name: 'ProvisionedThroughputExceededException' });
  });
});
