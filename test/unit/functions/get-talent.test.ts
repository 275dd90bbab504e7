import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, GetCommand, ScanCommand } from '@aws-sdk/lib-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import { getTalent } from '../../../functions/catalog/routes/get-talent/service';
import { listTalent } from '../../../functions/catalog/routes/list-talent/service';
import { talentStore } from '../../../functions/catalog/store';
import { talentFactory } from '../../support/talent';

const doc = DynamoDBDocumentClient.from(new DynamoDBClient({ region: 'us-east-1' }));
const dynamo = mockClient(doc);
const deps = talentStore(doc, 'talent');
beforeEach(() => dynamo.reset());
jest.spyOn(console, 'warn').mockImplementation(() => undefined);

describe('getTalent', () => {
  it('returns an active talent without its status', async () => {
    dynamo.on(GetCommand, { Key: { id: 'maya-chen' } }).resolves({ Item: talentFactory({ id: 'maya-chen' }) });
    const { talent } = await getTalent(deps, 'maya-chen');
    expect(talent.id).toBe('maya-chen');
    expect(talent).not.toHaveProperty('status');
  });

  it("never shows the talent's excluded industries (they are for the generation check only)", async () => {
    const item = { ...talentFactory({ id: 'maya-chen' }), excludedIndustries: ['politics'] };
    dynamo.on(GetCommand, { Key: { id: 'maya-chen' } }).resolves({ Item: item });
    dynamo.on(ScanCommand).resolves({ Items: [item] });
    const { talent } = await getTalent(deps, 'maya-chen');
    expect(talent.id).toBe('maya-chen');
    expect(talent).not.toHaveProperty('excludedIndustries');
    const { talent: listed } = await listTalent(deps);
    expect(listed.map((t) => t.id)).toEqual(['maya-chen']);
    expect(listed[0]).not.toHaveProperty('excludedIndustries');
  });

  it.each([undefined, '', 'Maya-Chen', 'maya_chen', '../admin', 'a'.repeat(65), '-maya', 'maya--chen'])(
    'answers Model not found for %p without reading the table',
    async (id) => {
      await expect(getTalent(deps, id)).rejects.toMatchObject({ status: 404, message: 'Model not found' });
      expect(dynamo.commandCalls(GetCommand)).toHaveLength(0);
    },
  );

  it('answers Model not found for an unknown, a hidden and a malformed item', async () => {
    dynamo.on(GetCommand, { Key: { id: 'hidden' } }).resolves({ Item: talentFactory({ id: 'hidden', status: 'hidden' }) });
    dynamo.on(GetCommand, { Key: { id: 'broken' } }).resolves({ Item: { id: 'broken', name: 'No other fields' } });
    dynamo.on(GetCommand, { Key: { id: 'nobody' } }).resolves({});
    for (const id of ['hidden', 'broken', 'nobody']) {
      await expect(getTalent(deps, id)).rejects.toMatchObject({ status: 404, message: 'Model not found' });
    }
  });
});

describe('listTalent', () => {
  it('pages through the table, keeps active valid talent and sorts by generations then name', async () => {
    dynamo
      .on(ScanCommand)
      .resolvesOnce({
        Items: [talentFactory({ id: 'b', name: 'Bea', generationCount: 5 }), talentFactory({ id: 'broken', tags: 'oops' })],
        LastEvaluatedKey: { id: 'broken' },
      })
      .resolvesOnce({ Items: [talentFactory({ id: 'a', name: 'Ann', generationCount: 5 }), talentFactory({ id: 'c', generationCount: 9 })] });
    const { talent } = await listTalent(deps);
    expect(talent.map((t) => t.id)).toEqual(['c', 'a', 'b']);
    const scans = dynamo.commandCalls(ScanCommand);
    expect(scans).toHaveLength(2);
    expect(scans[1].args[0].input.ExclusiveStartKey).toEqual({ id: 'broken' });
    expect(scans[0].args[0].input.ExpressionAttributeValues).toEqual({ ':active': 'active' });
  });
});
