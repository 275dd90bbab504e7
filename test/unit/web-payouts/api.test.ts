import { ApiError, SESSION_ENDED_MESSAGE } from '../../../web/src/api/client';
import { payoutsApi } from '../../../web/src/payouts/api';

const API = 'https://api.example.test';

type Reply = { status?: number; body?: unknown; text?: string; headers?: Record<string, string> };

/** The API with a scripted server: each call answers the next reply. */
function withServer(replies: Reply[], token: string | null = 'id-token') {
  const calls: Array<{ url: string; init: RequestInit }> = [];
  const fetch = (async (url: string, init: RequestInit) => {
    calls.push({ url, init });
    const reply = replies.shift();
    if (!reply) throw new Error('no more replies scripted');
    const body = reply.text ?? JSON.stringify(reply.body);
    return new Response(body, { status: reply.status ?? 200, headers: { 'content-type': 'application/json', ...reply.headers } });
  }) as unknown as typeof globalThis.fetch;
  return { api: payoutsApi({ apiUrl: API, getIdToken: async () => token ?? undefined, fetch }), calls };
}

const payouts = {
  account: { state: 'active', requirementsDue: [], bankLast4: '6789', payoutsEnabled: true },
  minimumCents: 1000,
  payouts: [
    { statementId: '2026-10_t1', talentId: 't1', month: '2026-10', statementCents: 1200, carriedInCents: 300, amountCents: 1500, state: 'paid', transferId: 'tr_1', paidAt: '2026-11-01T02:00:00.000Z' },
  ],
};

describe('payouts API client', () => {
  it('reads the payout account and payouts with the token, checked against the contract', async () => {
    const { api, calls } = withServer([{ body: payouts }, { body: { ...payouts, account: { ...payouts.account, state: 'paused' } } }]);
    await expect(api.payouts()).resolves.toEqual(payouts);
    expect(calls[0].url).toBe(`${API}/me/payouts`);
    expect((calls[0].init.headers as Record<string, string>).authorization).toBe('Bearer id-token');
    await expect(api.payouts()).rejects.toThrow(/GET \/me\/payouts \(account\.state:/);
  });

  it('asks for an onboarding link naming no account, and answers where to go', async () => {
    const { api, calls } = withServer([{ status: 201, body: { url: 'http://stripe.test/connect/onboarding/al_1' } }, { status: 201, body: { url: 'nowhere' } }]);
    await expect(api.startOnboarding()).resolves.toEqual({ url: 'http://stripe.test/connect/onboarding/al_1' });
    expect(calls[0]).toMatchObject({ url: `${API}/me/payouts/onboarding`, init: { method: 'POST' } });
    expect(calls[0].init.body).toBeUndefined();
    await expect(api.startOnboarding()).rejects.toThrow(/POST \/me\/payouts\/onboarding \(url:/);
  });

  it("passes the server's refusal on in its words", async () => {
    const { api } = withServer([{ status: 403, body: { error: 'Payouts are for accepted talent.' } }]);
    const err = await api.startOnboarding().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ApiError);
    expect(err).toMatchObject({ status: 403, message: 'Payouts are for accepted talent.' });
  });

  it("downloads a year's earnings as a file, named by the server or after the year", async () => {
    const { api, calls } = withServer([
      { text: 'Month,Statement USD\n2026-10,12.00\n', headers: { 'content-type': 'text/csv', 'content-disposition': 'attachment; filename="humanly-earnings-2026-t1.csv"' } },
      { text: 'Month\n', headers: { 'content-type': 'text/csv' } },
      { status: 400, body: { error: 'year must be a year such as 2026' } },
    ]);
    const file = await api.earningsCsv(2026);
    expect(calls[0].url).toBe(`${API}/me/payouts/earnings.csv?year=2026`);
    expect((calls[0].init.headers as Record<string, string>).accept).toBe('text/csv');
    expect(file.filename).toBe('humanly-earnings-2026-t1.csv');
    expect(await file.blob.text()).toContain('2026-10,12.00');
    expect((await api.earningsCsv(2025)).filename).toBe('humanly-earnings-2025.csv');
    await expect(api.earningsCsv(2024)).rejects.toMatchObject({ status: 400, message: 'year must be a year such as 2026' });
  });

  it('refuses a year that is not one before calling', async () => {
    const { api, calls } = withServer([]);
    await expect(api.earningsCsv(26)).rejects.toThrow('year must be a year from 2020, such as 2026; got 26');
    await expect(api.earningsCsv(2026.5)).rejects.toThrow(/got 2026.5/);
    expect(calls).toEqual([]);
  });

  it('does not call at all without a token', async () => {
    const { api, calls } = withServer([], null);
    await expect(api.payouts()).rejects.toMatchObject({ status: 401, message: SESSION_ENDED_MESSAGE });
    await expect(api.earningsCsv(2026)).rejects.toMatchObject({ status: 401, message: SESSION_ENDED_MESSAGE });
    expect(calls).toEqual([]);
  });
});
