import { ApiError, SESSION_ENDED_MESSAGE } from '../../../web/src/api/client';
import { paymentsApi } from '../../../web/src/payments/api';
import { UPGRADE_FIRST_MESSAGE } from '../../../events/payment-values';

const API = 'https://api.example.test';

/** The API with a scripted server: each call answers the next reply. */
function withServer(replies: Array<{ status?: number; body?: unknown }>, token: string | null = 'id-token') {
  const calls: Array<{ url: string; init: RequestInit }> = [];
  const fetch = (async (url: string, init: RequestInit) => {
    calls.push({ url, init });
    const reply = replies.shift();
    if (!reply) throw new Error('no more replies scripted');
    return new Response(JSON.stringify(reply.body), { status: reply.status ?? 200, headers: { 'content-type': 'application/json' } });
  }) as unknown as typeof globalThis.fetch;
  return { api: paymentsApi({ apiUrl: API, getIdToken: async () => token ?? undefined, fetch }), calls };
}

describe('payments API client', () => {
  it('starts a checkout naming what, never a price, with the token, and answers where to go', async () => {
    const { api, calls } = withServer([{ status: 201, body: { id: 'cs_1', url: 'http://stripe.test/c/pay/cs_1' } }, { status: 201, body: { url: 'not a url' } }]);
    await expect(api.startCheckout({ kind: 'credits', pack: 100, quantity: 2 })).resolves.toEqual({ id: 'cs_1', url: 'http://stripe.test/c/pay/cs_1' });
    expect(calls[0].url).toBe(`${API}/me/checkout-sessions`);
    expect(calls[0].init.method).toBe('POST');
    expect(JSON.parse(String(calls[0].init.body))).toEqual({ kind: 'credits', pack: 100, quantity: 2 });
    expect((calls[0].init.headers as Record<string, string>).authorization).toBe('Bearer id-token');
    await expect(api.startCheckout({ kind: 'plan', plan: 'pro' })).rejects.toThrow(/POST \/me\/checkout-sessions \(url:/);
  });

  it("passes the server's refusal on in its words", async () => {
    const { api } = withServer([{ status: 409, body: { error: UPGRADE_FIRST_MESSAGE } }]);
    const err = await api.startCheckout({ kind: 'credits', pack: 50, quantity: 1 }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ApiError);
    expect(err).toMatchObject({ status: 409, message: UPGRADE_FIRST_MESSAGE });
  });

  it('reads a checkout by its id (escaped), the billing, and opens the billing portal', async () => {
    const billing = { plan: 'starter', hasBillingAccount: true, extraCreditCents: 40, subscription: { id: 'sub_1', plan: 'starter', state: 'active', currentPeriodEnd: '2026-12-27T10:00:00.000Z' } };
    const { api, calls } = withServer([
      { body: { id: 'cs_1', state: 'confirming', kind: 'plan', plan: 'starter' } },
      { body: billing },
      { status: 201, body: { url: 'http://stripe.test/p/session/bps_1' } },
      { body: { id: 'cs_1', state: 'done', kind: 'plan' } },
    ]);
    await expect(api.checkout('cs_1/../x')).resolves.toMatchObject({ state: 'confirming' });
    expect(calls[0].url).toBe(`${API}/me/checkout-sessions/cs_1%2F..%2Fx`);
    await expect(api.billing()).resolves.toEqual(billing);
    await expect(api.openBillingPortal()).resolves.toEqual({ url: 'http://stripe.test/p/session/bps_1' });
    expect(calls[2]).toMatchObject({ url: `${API}/me/billing-portal-sessions`, init: { method: 'POST' } });
    await expect(api.checkout('cs_1')).rejects.toThrow(/GET \/me\/checkout-sessions\/cs_1 \(state:/);
  });

  it('does not call at all without a token', async () => {
    const { api, calls } = withServer([], null);
    await expect(api.billing()).rejects.toMatchObject({ status: 401, message: SESSION_ENDED_MESSAGE });
    expect(calls).toEqual([]);
  });
});
