// The console's payout calls (admin/src/dataProvider.ts): each goes under /admin with its month
// or statement in the path, answers are checked against the shared contract (events/payouts.ts),
// and a month that is not one is refused before any call.
import { createDataProvider, type HttpClient } from '../../../admin/src/dataProvider';

// react-admin's UI packages do not load under jest; the data provider needs only its HttpError.
jest.mock('react-admin', () => ({
  fetchUtils: {},
  HttpError: class HttpError extends Error {
    constructor(
      message: string,
      readonly status: number,
      readonly body: unknown = null,
    ) {
      super(message);
    }
  },
}));
jest.mock('../../../admin/src/authProvider', () => ({ getIdToken: async () => undefined }));

type Options = Parameters<HttpClient>[1];

/** An HTTP client that records each call and answers with `answer`. */
function client(answer: (path: string, options: Options) => unknown) {
  const calls: Array<{ path: string; options: Options }> = [];
  const http = (async (path: string, options: Options = {}) => {
    calls.push({ path, options });
    const result = answer(path, options);
    return { status: 200, headers: new Headers(), body: typeof result === 'string' ? result : JSON.stringify(result), json: result };
  }) as HttpClient;
  return { dataProvider: createDataProvider('https://api.example.test', http), calls };
}

const payout = {
  statementId: '2026-10_t1',
  talentId: 't1',
  talentName: 'Maya Chen',
  month: '2026-10',
  statementCents: 1200,
  carriedInCents: 300,
  amountCents: 1500,
  state: 'paid',
  transferId: 'tr_1',
  paidAt: '2026-11-01T02:00:00.000Z',
};
const run = {
  month: '2026-10',
  ranAt: '2026-11-01T02:00:00.000Z',
  payouts: [payout],
  totals: { statementsCents: 1200, carriedInCents: 300, transferredCents: 1500, carriedCents: 0, failedCents: 0, manualCents: 0, awaitingCents: 0, stripeTransfersCents: 1500 },
  reconciliation: { state: 'balanced', differences: [] },
};

describe('console data provider: payouts', () => {
  it("reads and runs a month's payouts at /payout-runs/{month}", async () => {
    const { dataProvider, calls } = client(() => run);
    await expect(dataProvider.getPayoutRun('2026-10')).resolves.toEqual({ data: run });
    expect(calls[0].path).toBe('/payout-runs/2026-10');
    expect(calls[0].options?.method).toBeUndefined();
    await expect(dataProvider.runPayouts('2026-10')).resolves.toEqual({ data: run });
    expect(calls[1]).toMatchObject({ path: '/payout-runs/2026-10', options: { method: 'POST', body: '{}' } });
  });

  it('refuses a month that is not one, before calling', async () => {
    const { dataProvider, calls } = client(() => run);
    await expect(dataProvider.getPayoutRun('2026-13')).rejects.toThrow('month must be a month such as 2026-11; got "2026-13"');
    await expect(dataProvider.runPayouts('../users')).rejects.toThrow(/month must be a month such as 2026-11/);
    await expect(dataProvider.exportPayoutRunCsv('2026-1')).rejects.toThrow(/got "2026-1"/);
    expect(calls).toEqual([]);
  });

  it('names the call when an answer breaks the contract', async () => {
    const { dataProvider } = client(() => ({ ...run, reconciliation: { state: 'maybe', differences: [] } }));
    await expect(dataProvider.getPayoutRun('2026-10')).rejects.toThrow('Unexpected response from /admin/payout-runs/2026-10');
  });

  it('retries a payout and records one paid outside Stripe, by statement id (escaped)', async () => {
    const manual = { ...payout, state: 'manual', transferId: undefined, reference: 'WISE-9', reason: 'No Stripe in their country' };
    const answers = [payout, manual];
    const { dataProvider, calls } = client(() => answers.shift());
    await expect(dataProvider.retryPayout('2026-10_t1')).resolves.toEqual({ data: payout });
    expect(calls[0]).toMatchObject({ path: '/payouts/2026-10_t1/retry', options: { method: 'POST' } });
    const request = { reference: 'WISE-9', reason: 'No Stripe in their country' };
    await expect(dataProvider.markPayoutManual('2026-10/t1', request)).resolves.toMatchObject({ data: { state: 'manual', reference: 'WISE-9' } });
    expect(calls[1].path).toBe('/payouts/2026-10%2Ft1/manual');
    expect(JSON.parse(String(calls[1].options?.body))).toEqual(request);
  });

  it("downloads a month's CSV as text and reads a talent's payout history", async () => {
    const history = { entries: [{ at: '2026-11-01T02:00:00.000Z', what: 'Bank account changed to one ending 6789', extra: 'dropped' }] };
    const answers: unknown[] = ['Talent,Amount USD\r\nMaya Chen,15.00\r\n', history, { entries: [{ at: 1 }] }];
    const { dataProvider, calls } = client(() => answers.shift());
    await expect(dataProvider.exportPayoutRunCsv('2026-10')).resolves.toContain('Maya Chen,15.00');
    expect(calls[0].path).toBe('/payout-runs/2026-10/csv');
    expect(new Headers(calls[0].options?.headers).get('accept')).toBe('text/csv');
    await expect(dataProvider.getPayoutHistory('t 1')).resolves.toEqual({ data: { entries: [{ at: '2026-11-01T02:00:00.000Z', what: 'Bank account changed to one ending 6789' }] } });
    expect(calls[1].path).toBe('/talent/t%201/payout-history');
    await expect(dataProvider.getPayoutHistory('t1')).rejects.toThrow('Unexpected response from /admin/talent/t1/payout-history');
  });
});
