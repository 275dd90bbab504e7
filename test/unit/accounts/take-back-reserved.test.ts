// Take-backs of reserved and expired credits (decision 049): a take-back claims its source's
// credits that generations hold reserved, so a release drops them instead of returning them and a
// commit spends them only when nothing else is left, saying so; credits of the source that expired
// are counted apart from the spent ones, each by one take-back only. The writes are checked here
// against a mocked DynamoDB; the twin's tests run the same through refunds.
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, GetCommand, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import { planLot, type CreditLot } from '../../../events/plans';
import { creditLedger, expiryTallyWrites, takeHeld, type LotCredits } from '../../../functions/accounts/credits';

const doc = DynamoDBDocumentClient.from(new DynamoDBClient({ region: 'us-east-1' }));
const mock = mockClient(doc);
const NOW = '2027-03-01T12:00:00.000Z';
const ledger = creditLedger(doc, 'Accounts', () => new Date(NOW));

const PACK: CreditLot = { ...planLot('starter'), source: 'checkout:cs_pack' };
const OTHER: CreditLot = { ...planLot('starter'), source: 'invoice:in_other' };
const lot = (credits: number, of: CreditLot): LotCredits => ({ credits, ...of });
const key = (sk: string) => ({ pk: 'ACCOUNT#a1', sk });

/** The account's items as stored; every other read finds nothing. */
function stored(items: Record<string, Record<string, unknown>>) {
  mock.reset();
  mock.on(GetCommand).resolves({});
  for (const [sk, Item] of Object.entries(items)) mock.on(GetCommand, { Key: key(sk) }).resolves({ Item });
  mock.on(TransactWriteCommand).resolves({});
}
const written = () => mock.commandCalls(TransactWriteCommand)[0].args[0].input.TransactItems!;
const updateOf = (sk: string) => written().find((i) => i.Update?.Key?.sk === sk)?.Update;
const putOf = (kind: string) => written().find((i) => i.Put?.Item?.kind === kind && !String(i.Put.Item.sk).startsWith('KEY#'))?.Put?.Item;

describe('a take-back while a generation holds the purchase reserved', () => {
  it('takes the unspent credits, then claims the reserved ones: nothing of them is a shortfall', async () => {
    stored({
      BALANCE: { credits: 3, seq: 7, lots: [lot(3, PACK)], openReservations: ['g1'] },
      'GEN#g1': { reserved: 4, committed: 0, released: 0, open: 4, openLots: [lot(1, OTHER), lot(3, PACK)] },
    });
    const result = await ledger.takeBack('a1', { key: 'refund:ch_1:2000', source: 'checkout:cs_pack', credits: 6, reason: 'Refund' });
    expect(result).toMatchObject({ takenBack: 6, reserved: 3, expired: 0, shortfall: 0, balance: 0, replayed: false, entry: { kind: 'take-back', credits: -3 } });
    // The reservation keeps all four open (the generation may still commit them) but three are claimed.
    expect(updateOf('GEN#g1')).toMatchObject({
      ConditionExpression: 'reserved = :seenReserved AND #open = :seenOpen',
      ExpressionAttributeValues: { ':c': 3, ':held': [lot(1, OTHER)], ':claimed': [lot(3, PACK)], ':seenReserved': 4, ':seenOpen': 4 },
    });
    expect(updateOf('BALANCE')).toMatchObject({ ConditionExpression: 'seq = :seen', ExpressionAttributeValues: expect.objectContaining({ ':after': 0, ':seen': 7, ':lots': [] }) });
    expect(putOf('take-back')).toMatchObject({ reservedTakenBack: [{ generationId: 'g1', credits: 3 }] });
  });

  it('a release drops the claimed credits first and returns only the others', async () => {
    stored({
      BALANCE: { credits: 0, seq: 8, lots: [], openReservations: ['g1'] },
      'GEN#g1': { reserved: 4, committed: 0, released: 0, open: 4, openLots: [lot(1, OTHER)], takenBackLots: [lot(3, PACK)], takenBack: 3 },
    });
    const result = await ledger.release('a1', { credits: 4, key: 'gen:g1:release', generationId: 'g1', reason: 'Generation failed: credits returned' });
    expect(result).toMatchObject({ balance: 1, lots: [lot(1, OTHER)], claimed: [lot(3, PACK)], entry: { kind: 'release', credits: 1, balanceAfter: 1 } });
    expect(putOf('release')).toMatchObject({ droppedTakenBack: [lot(3, PACK)] });
    expect(updateOf('GEN#g1')).toMatchObject({ ExpressionAttributeValues: expect.objectContaining({ ':minus': -4, ':held': [], ':claimed': [] }) });
    // Nothing held any more: the balance stops listing the generation.
    expect(updateOf('BALANCE')).toMatchObject({ ExpressionAttributeValues: expect.objectContaining({ ':after': 1, ':lots': [lot(1, OTHER)], ':reservations': [] }) });
  });

  it('a commit spends unclaimed credits first; a claimed one only when nothing else is left, and says so', async () => {
    stored({
      BALANCE: { credits: 0, seq: 8, lots: [], openReservations: ['g1'] },
      'GEN#g1': { reserved: 4, committed: 0, released: 0, open: 4, openLots: [lot(1, OTHER)], takenBackLots: [lot(3, PACK)], takenBack: 3 },
    });
    const first = await ledger.commitOne('a1', { key: 'gen:g1:commit:0', generationId: 'g1', reason: 'Image' }, () => []);
    expect(first).toMatchObject({ credit: lot(1, OTHER), lots: [lot(1, OTHER)] });
    expect(first.claimed).toBeUndefined();

    stored({
      BALANCE: { credits: 0, seq: 9, lots: [], openReservations: ['g1'] },
      'GEN#g1': { reserved: 4, committed: 1, released: 0, open: 3, openLots: [], takenBackLots: [lot(3, PACK)], takenBack: 3 },
    });
    const second = await ledger.commitOne('a1', { key: 'gen:g1:commit:1', generationId: 'g1', reason: 'Image' }, () => []);
    expect(second).toMatchObject({ credit: lot(1, PACK), claimed: [lot(1, PACK)], entry: { kind: 'commit', credits: 0 } });
    expect(putOf('commit')).toMatchObject({ spentTakenBack: [lot(1, PACK)] });
    expect(updateOf('GEN#g1')).toMatchObject({ ExpressionAttributeValues: expect.objectContaining({ ':held': [], ':claimed': [lot(2, PACK)] }) });
  });

  it('a reserve lists its generation on the balance, so a take-back finds it', async () => {
    stored({ BALANCE: { credits: 5, seq: 1, lots: [lot(5, PACK)] } });
    await ledger.reserve('a1', { credits: 2, key: 'gen:g2:reserve', generationId: 'g2', reason: 'Image' });
    expect(updateOf('BALANCE')).toMatchObject({ ExpressionAttributeValues: expect.objectContaining({ ':reservations': ['g2'] }) });
  });
});

describe('expired credits in a take-back', () => {
  it('are counted apart from the spent ones, and only those not counted by an earlier take-back', async () => {
    stored({
      BALANCE: { credits: 0, seq: 12, lots: [] },
      'SOURCE#checkout:cs_pack': { expired: 30, expiredTakenBack: 10 },
    });
    const result = await ledger.takeBack('a1', { key: 'dispute:dp_1', source: 'checkout:cs_pack', credits: 50, reason: 'Dispute lost' });
    expect(result).toMatchObject({ takenBack: 0, reserved: 0, expired: 20, shortfall: 30 });
    expect(updateOf('SOURCE#checkout:cs_pack')).toMatchObject({ UpdateExpression: 'ADD expired :n, expiredTakenBack :c SET #source = :s, updatedAt = :at', ExpressionAttributeValues: expect.objectContaining({ ':n': 0, ':c': 20 }) });
    expect(putOf('take-back')).toMatchObject({ expiredTakenBack: 20 });
  });

  it('count credits of the source that expire in the same write', async () => {
    stored({ BALANCE: { credits: 5, seq: 3, lots: [lot(5, { ...PACK, expiresAt: '2027-02-28T23:59:59.999Z' })] } });
    const result = await ledger.takeBack('a1', { key: 'refund:ch_2:1000', source: 'checkout:cs_pack', credits: 8, reason: 'Refund' });
    expect(result).toMatchObject({ takenBack: 0, expired: 5, shortfall: 3 });
    // One write of the source's tally: the expiry and what this take-back counted of it.
    expect(written().filter((i) => i.Update?.Key?.sk === 'SOURCE#checkout:cs_pack')).toHaveLength(1);
    expect(updateOf('SOURCE#checkout:cs_pack')).toMatchObject({ ExpressionAttributeValues: expect.objectContaining({ ':n': 5, ':c': 5 }) });
  });

  it('an expiry counts its credits by source in its own transaction', async () => {
    stored({ BALANCE: { credits: 9, seq: 3, lots: [lot(4, { ...PACK, expiresAt: '2027-02-01T00:00:00.000Z' }), lot(5, { ...OTHER, expiresAt: '2027-02-01T00:00:00.000Z' })] } });
    await ledger.expire('a1');
    expect(updateOf('SOURCE#checkout:cs_pack')).toMatchObject({ ExpressionAttributeValues: expect.objectContaining({ ':n': 4, ':c': 0 }) });
    expect(updateOf('SOURCE#invoice:in_other')).toMatchObject({ ExpressionAttributeValues: expect.objectContaining({ ':n': 5 }) });
  });
});

describe('takeHeld and expiryTallyWrites', () => {
  it('takeHeld takes the preferred kind first, then the other', () => {
    const open = [lot(2, OTHER)];
    const claimed = [lot(2, PACK)];
    expect(takeHeld(open, claimed, 3, 'open')).toEqual({ fromOpen: [lot(2, OTHER)], openAfter: [], fromClaimed: [lot(1, PACK)], claimedAfter: [lot(1, PACK)] });
    expect(takeHeld(open, claimed, 3, 'claimed')).toEqual({ fromClaimed: [lot(2, PACK)], claimedAfter: [], fromOpen: [lot(1, OTHER)], openAfter: [lot(1, OTHER)] });
    expect(() => takeHeld(open, claimed, 5, 'open')).toThrow('the lots hold 2 credits, not the 3 asked for');
  });

  it('expiryTallyWrites skips lots without a source and writes nothing when nothing is due', () => {
    expect(expiryTallyWrites('Accounts', 'a1', [lot(3, planLot('free'))], NOW)).toEqual([]);
    expect(expiryTallyWrites('Accounts', 'a1', [lot(3, PACK), lot(2, PACK)], NOW)).toHaveLength(1);
  });
});
