// The shape of a ledger write (decision 021): one TransactWriteItems of the key's guard, the entry
// and the balance under a condition; a reserve's condition holds the credits it takes.
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, GetCommand, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import { creditLedger, InsufficientCreditsError } from '../../../functions/accounts/credits';

const doc = DynamoDBDocumentClient.from(new DynamoDBClient({ region: 'us-east-1' }));
const mock = mockClient(doc);
const ledger = creditLedger(doc, 'Accounts', () => new Date('2026-03-01T12:00:00.000Z'));

beforeEach(() => {
  mock.reset();
  mock.on(GetCommand, { Key: { pk: 'ACCOUNT#a1', sk: 'BALANCE' } }).resolves({ Item: { credits: 7, seq: 3 } });
  mock.on(GetCommand, { Key: { pk: 'ACCOUNT#a1', sk: 'KEY#k1' } }).resolves({});
  mock.on(TransactWriteCommand).resolves({});
});

describe('ledger writes', () => {
  it('a reserve is one transaction: guard, entry, balance (by its sequence and holding the credits), generation', async () => {
    const result = await ledger.reserve('a1', { credits: 2, key: 'k1', generationId: 'g1', reason: 'Image' });
    expect(result).toMatchObject({ balance: 5, replayed: false, entry: { kind: 'reserve', credits: -2, balanceAfter: 5, generationId: 'g1', at: '2026-03-01T12:00:00.000Z' } });
    const [call] = mock.commandCalls(TransactWriteCommand);
    const items = call.args[0].input.TransactItems!;
    expect(items).toHaveLength(4);
    expect(items[0].Put).toMatchObject({ Item: { pk: 'ACCOUNT#a1', sk: 'KEY#k1', kind: 'reserve', credits: 2 }, ConditionExpression: 'attribute_not_exists(pk)' });
    expect(items[1].Put).toMatchObject({ Item: { pk: 'ACCOUNT#a1', sk: 'LEDGER#000000000004', balanceAfter: 5 }, ConditionExpression: 'attribute_not_exists(pk)' });
    expect(items[2].Update).toMatchObject({
      Key: { pk: 'ACCOUNT#a1', sk: 'BALANCE' },
      ConditionExpression: 'seq = :seen AND credits >= :n',
      ExpressionAttributeValues: expect.objectContaining({ ':after': 5, ':seq': 4, ':seen': 3, ':n': 2 }),
    });
    expect(items[3].Update).toMatchObject({ Key: { pk: 'ACCOUNT#a1', sk: 'GEN#g1' } });
  });

  it('a commit is bounded by what the generation still has open', async () => {
    await ledger.commit('a1', { credits: 2, key: 'k1', generationId: 'g1', reason: 'Image' });
    const items = mock.commandCalls(TransactWriteCommand)[0].args[0].input.TransactItems!;
    expect(items[2].Update?.ExpressionAttributeValues).toMatchObject({ ':after': 7 });
    expect(items[3].Update).toMatchObject({ ConditionExpression: '#open >= :n', ExpressionAttributeValues: { ':n': 2, ':minus': -2 } });
  });

  it('an admin grant writes its audit entry in the same transaction', async () => {
    await ledger.grant('a1', { credits: 5, key: 'k1', reason: 'Goodwill', by: { sub: 'admin1', email: 'admin@people.example' } });
    const items = mock.commandCalls(TransactWriteCommand)[0].args[0].input.TransactItems!;
    expect(items).toHaveLength(4);
    expect(items[1].Put?.Item).toMatchObject({ kind: 'grant', credits: 5, balanceAfter: 12, by: 'admin@people.example' });
    expect(items[3].Put?.Item).toMatchObject({ action: 'credits-granted', by: 'admin@people.example', detail: '5 credits: Goodwill' });
  });

  it('refuses a reserve beyond the balance before writing, naming both figures', async () => {
    await expect(ledger.reserve('a1', { credits: 8, key: 'k1', generationId: 'g1', reason: 'Image' })).rejects.toEqual(new InsufficientCreditsError(8, 7));
    await expect(ledger.reserve('a1', { credits: 8, key: 'k1', generationId: 'g1', reason: 'Image' })).rejects.toThrow('Not enough credits: this needs 8 and your balance is 7.');
    expect(mock.commandCalls(TransactWriteCommand)).toHaveLength(0);
  });

  it('refuses amounts that are not whole positive numbers, and a reserve without its generation', async () => {
    for (const credits of [0, -1, 1.5, Number.NaN]) {
      await expect(ledger.grant('a1', { credits, key: 'k1', reason: 'x' })).rejects.toMatchObject({ status: 400, message: expect.stringMatching(/credits must be a whole number/) });
    }
    await expect(ledger.reserve('a1', { credits: 1, key: 'k1', generationId: '', reason: 'x' })).rejects.toMatchObject({ status: 400, message: 'a reserve needs the generationId it belongs to' });
    expect(mock.commandCalls(TransactWriteCommand)).toHaveLength(0);
  });
});
