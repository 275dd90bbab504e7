import { ConflictError } from '../../../functions/shared/errors';
import { IdempotencyInProgressError } from '../../../functions/shared/idempotency';
import { isRaceLost, RaceLostError, retryRaces } from '../../../functions/shared/retry';

const named = (name: string, extra: object = {}) => Object.assign(new Error(name), { name, ...extra });
const noPause = { sleep: async () => undefined, random: () => 1 };

describe('lost races', () => {
  it('are conditional writes, concurrent transactions, idempotency records in progress and a wing\'s own RaceLostError, also as a cause', () => {
    expect(isRaceLost(named('ConditionalCheckFailedException'))).toBe(true);
    expect(isRaceLost(named('TransactionConflictException'))).toBe(true);
    expect(isRaceLost(named('TransactionCanceledException', { CancellationReasons: [{ Code: 'None' }, { Code: 'TransactionConflict' }] }))).toBe(true);
    expect(isRaceLost(named('TransactionCanceledException', { CancellationReasons: [{ Code: 'ConditionalCheckFailed' }] }))).toBe(true);
    expect(isRaceLost(new IdempotencyInProgressError('busy'))).toBe(true);
    expect(isRaceLost(new RaceLostError('another delivery holds the payment'))).toBe(true);
    expect(isRaceLost(new Error('wrapped', { cause: named('TransactionConflictException') }))).toBe(true);
  });

  it('are not other failures: a refusal of ours, a dependency down, a validation error of a transaction', () => {
    expect(isRaceLost(new ConflictError('This key was used for another change.'))).toBe(false);
    expect(isRaceLost(named('ProvisionedThroughputExceededException'))).toBe(false);
    expect(isRaceLost(named('TransactionCanceledException', { CancellationReasons: [{ Code: 'ValidationError' }] }))).toBe(false);
    expect(isRaceLost(new TypeError('x is undefined'))).toBe(false);
    expect(isRaceLost(undefined)).toBe(false);
  });
});

describe('retryRaces', () => {
  it('runs again after a lost race and answers the attempt that won', async () => {
    const fn = jest.fn().mockRejectedValueOnce(named('TransactionConflictException')).mockRejectedValueOnce(new IdempotencyInProgressError('busy')).mockResolvedValue('applied');
    await expect(retryRaces(fn, noPause)).resolves.toBe('applied');
    expect(fn).toHaveBeenCalledTimes(3);
  });

  it('passes any other error on at once', async () => {
    const down = named('ServiceUnavailable');
    const fn = jest.fn().mockRejectedValue(down);
    await expect(retryRaces(fn, noPause)).rejects.toBe(down);
    expect(fn).toHaveBeenCalledTimes(1);
  });

  it('gives up after its attempts with the last error', async () => {
    const last = new RaceLostError('still busy');
    const fn = jest.fn().mockRejectedValue(last);
    await expect(retryRaces(fn, { ...noPause, attempts: 4 })).rejects.toBe(last);
    expect(fn).toHaveBeenCalledTimes(4);
  });

  it('pauses a random time under a doubling bound, capped, and stops before its time budget', async () => {
    const pauses: number[] = [];
    const fn = jest.fn().mockRejectedValue(new RaceLostError('busy'));
    await expect(retryRaces(fn, { attempts: 6, baseMs: 10, capMs: 50, budgetMs: 60_000, random: () => 0.99, sleep: async (ms) => void pauses.push(ms) })).rejects.toThrow('busy');
    expect(pauses).toEqual([19, 39, 49, 49, 49]);
    const early = jest.fn().mockRejectedValue(new RaceLostError('busy'));
    await expect(retryRaces(early, { baseMs: 1000, capMs: 1000, budgetMs: 500, random: () => 0.99, sleep: async () => undefined })).rejects.toThrow('busy');
    expect(early).toHaveBeenCalledTimes(1);
  });
});
