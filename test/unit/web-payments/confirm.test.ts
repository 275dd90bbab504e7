import type { CheckoutStatus } from '../../../events/payments';
import { ApiError } from '../../../web/src/api/client';
import { CONFIRM_PATIENCE_MS, FollowAbortedError, SLOW_INTERVAL_MS, confirmDelay, followCheckout } from '../../../web/src/payments/confirm';

const status = (state: CheckoutStatus['state']): CheckoutStatus => ({ id: 'cs_1', state, kind: 'plan', plan: 'starter' });

/** A clock that moves only when the loop sleeps, and the waits it was asked for. */
function fakeTime() {
  let t = 0;
  const waits: number[] = [];
  return {
    waits,
    now: () => t,
    sleep: async (ms: number) => {
      waits.push(ms);
      t += ms;
    },
  };
}

describe('following a checkout until it is applied', () => {
  it('backs off from 1 s to at most 10 s', () => {
    expect([0, 1, 2, 3].map(confirmDelay)).toEqual([1000, 1500, 2250, 3375]);
    expect(confirmDelay(20)).toBe(10_000);
    expect(() => confirmDelay(-1)).toThrow('attempt must be a whole number, got -1');
  });

  it('asks until the API says applied, through open and confirming, and retries a network failure', async () => {
    const answers: Array<CheckoutStatus | Error> = [status('open'), new ApiError('offline', 0), status('confirming'), status('applied')];
    const seen: string[] = [];
    const time = fakeTime();
    const result = await followCheckout({
      id: 'cs_1',
      read: async (id) => {
        expect(id).toBe('cs_1');
        const next = answers.shift()!;
        if (next instanceof Error) throw next;
        return next;
      },
      onUpdate: (s) => seen.push(s.state),
      ...time,
    });
    expect(result).toEqual(status('applied'));
    expect(seen).toEqual(['open', 'confirming', 'applied']);
    expect(time.waits).toEqual([1000, 1500, 2250]);
  });

  it('ends at once on an expired checkout and on a refusal other than a network failure', async () => {
    await expect(followCheckout({ id: 'cs_1', read: async () => status('expired'), ...fakeTime() })).resolves.toEqual(status('expired'));
    await expect(followCheckout({ id: 'cs_x', read: async () => Promise.reject(new ApiError('Checkout not found', 404)), ...fakeTime() })).rejects.toMatchObject({ status: 404 });
  });

  it('says once that it takes long after two minutes, then asks less often, and gives up in the end', async () => {
    const time = fakeTime();
    let slow = 0;
    let slowAt = -1;
    const result = await followCheckout({ id: 'cs_1', read: async () => status('confirming'), onSlow: () => ((slow += 1), (slowAt = time.now())), giveUpMs: 10 * 60_000, ...time });
    expect(result).toBeUndefined();
    expect(slow).toBe(1);
    expect(slowAt).toBeGreaterThanOrEqual(CONFIRM_PATIENCE_MS);
    expect(slowAt).toBeLessThan(CONFIRM_PATIENCE_MS + 10_000);
    const after = time.waits.slice(time.waits.indexOf(SLOW_INTERVAL_MS));
    expect(after.length).toBeGreaterThan(1);
    expect(after.every((ms) => ms === SLOW_INTERVAL_MS)).toBe(true);
  });

  it('stops when the page is left', async () => {
    const abort = new AbortController();
    const pending = followCheckout({ id: 'cs_1', read: async () => status('open'), signal: abort.signal, sleep: (_ms, signal) => new Promise((_, reject) => signal?.addEventListener('abort', () => reject(new FollowAbortedError()))) });
    abort.abort();
    await expect(pending).rejects.toBeInstanceOf(FollowAbortedError);
  });
});
