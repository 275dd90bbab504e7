import { GetCommand, PutCommand, UpdateCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { foundingStore } from '../../../functions/founding/store';
import { allocateFoundingSpot, allocateSpot } from '../../../functions/founding/steps/allocate-spot/service';
import { ID, TABLE, application, conditionFailed, mockedStore, quiet } from './support';

quiet();
const SPOT = { pk: `SPOT#${ID}`, sk: 'SPOT' };
const COUNTER = { pk: 'SPOTS', sk: 'FOUNDING' };

describe('allocateFoundingSpot', () => {
  const HOLDER = `spot_${ID}`;
  const deps = (doc: DynamoDBDocumentClient) => ({ store: foundingStore(doc, TABLE) });

  test('takes the next spot in one conditional update that records the holder with the count', async () => {
    const { doc, mock, inputs } = mockedStore();
    mock.on(UpdateCommand, { Key: COUNTER }).resolves({ Attributes: { taken: 6, [HOLDER]: 6 } });
    expect(await allocateFoundingSpot(deps(doc), ID)).toEqual({ founding: true, spotNumber: 6 });

    const [update] = inputs(UpdateCommand);
    expect(update).toMatchObject({
      Key: COUNTER,
      UpdateExpression: expect.stringContaining('SET taken = if_not_exists(taken, :zero) + :one, #holder = if_not_exists(taken, :zero) + :one'),
      ConditionExpression: 'attribute_not_exists(#holder) AND (attribute_not_exists(taken) OR taken < :total)',
      ExpressionAttributeNames: { '#holder': HOLDER },
      ExpressionAttributeValues: expect.objectContaining({ ':total': 30 }),
      ReturnValues: 'UPDATED_NEW',
    });
    expect(inputs(PutCommand)).toEqual([expect.objectContaining({ Item: expect.objectContaining({ ...SPOT, applicationId: ID, number: 6 }) })]);
  });

  test('a retried step gets its own spot back from the counter and takes no second one', async () => {
    const { doc, mock, inputs } = mockedStore();
    mock.on(UpdateCommand, { Key: COUNTER }).rejects(conditionFailed());
    mock.on(GetCommand, { Key: COUNTER }).resolves({ Item: { ...COUNTER, taken: 30, [HOLDER]: 12 } });
    expect(await allocateFoundingSpot(deps(doc), ID)).toEqual({ founding: true, spotNumber: 12 });
    expect(inputs(UpdateCommand)).toHaveLength(1);
    expect(inputs(PutCommand)[0].Item).toMatchObject({ ...SPOT, number: 12 });
  });

  test('all 30 spots taken: standard talent, no SPOT# item', async () => {
    const { doc, mock, inputs } = mockedStore();
    mock.on(UpdateCommand, { Key: COUNTER }).rejects(conditionFailed());
    mock.on(GetCommand, { Key: COUNTER }).resolves({ Item: { ...COUNTER, taken: 30, spot_app_someoneelse: 30 } });
    expect(await allocateFoundingSpot(deps(doc), ID)).toEqual({ founding: false });
    expect(inputs(PutCommand)).toHaveLength(0);
  });

  test('a smaller total is honoured', async () => {
    const { doc, mock, inputs } = mockedStore();
    mock.on(UpdateCommand, { Key: COUNTER }).resolves({ Attributes: { [HOLDER]: 1 } });
    await allocateFoundingSpot({ ...deps(doc), total: 5 }, ID);
    expect(inputs(UpdateCommand)[0].ExpressionAttributeValues[':total']).toBe(5);
  });

  test('other errors are thrown (the state machine retries the step)', async () => {
    const { doc, mock } = mockedStore();
    mock.on(UpdateCommand).rejects(Object.assign(new Error('throttled'), { name: 'ProvisionedThroughputExceededException' }));
    await expect(allocateFoundingSpot(deps(doc), ID)).rejects.toMatchObject({ name: 'ProvisionedThroughputExceededException' });
  });
});

describe('allocateSpot (the step)', () => {
  test('records the spot, founding flag and royalty plan on the application', async () => {
    const { doc, mock, inputs } = mockedStore(application({ status: 'pending_review' }));
    mock.on(UpdateCommand, { Key: COUNTER }).resolves({ Attributes: { taken: 3, [`spot_${ID}`]: 3 } });
    expect(await allocateSpot({ store: foundingStore(doc, TABLE) }, ID)).toEqual({ founding: true, spotNumber: 3 });
    const update = inputs(UpdateCommand).find((u) => u.Key.pk === `APP#${ID}`);
    expect(Object.values(update.ExpressionAttributeValues)).toEqual(expect.arrayContaining([true, 3, 'founding-35']));
    expect(inputs(PutCommand).some((p) => p.Item.event === 'spot allocated' && p.Item.note === 'founding spot 3 of 30')).toBe(true);
  });

  test('a standard-program application never takes a founding spot', async () => {
    const { doc, inputs } = mockedStore(application({ program: 'standard' }));
    expect(await allocateSpot({ store: foundingStore(doc, TABLE) }, ID)).toEqual({ founding: false });
    expect(inputs(UpdateCommand).filter((u) => u.Key.pk === 'SPOTS')).toHaveLength(0);
    const update = inputs(UpdateCommand).find((u) => u.Key.pk === `APP#${ID}`);
    expect(Object.values(update.ExpressionAttributeValues)).toContain('standard-tiers');
  });

  test('a retry after the outcome was recorded returns it unchanged', async () => {
    const { doc, inputs } = mockedStore(application({ founding: true, spotNumber: 9, royaltyPlan: 'founding-35' }));
    expect(await allocateSpot({ store: foundingStore(doc, TABLE) }, ID)).toEqual({ founding: true, spotNumber: 9 });
    expect(inputs(UpdateCommand)).toHaveLength(0);
  });
});
