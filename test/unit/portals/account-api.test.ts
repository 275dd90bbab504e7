import { ApiError, SESSION_ENDED_MESSAGE, UnexpectedAnswerError } from '../../../web/src/api/client';
import { accountApi } from '../../../web/src/account/api';

const API = 'https://api.example.test';
const at = '2026-11-24T10:00:00.000Z';
const entry = (n: number) => ({ id: `e${n}`, kind: 'grant', credits: 10, balanceAfter: 10 * n, reason: 'Free plan credits', at });

interface Call {
  url: string;
  init: RequestInit;
}

/** The API with a scripted server: each call answers the next reply. */
function withServer(replies: Array<{ status?: number; body?: unknown; raw?: string } | Error>, token: string | null = 'id-token') {
  const calls: Call[] = [];
  const fetch = (async (url: string, init: RequestInit) => {
    calls.push({ url, init });
    const reply = replies.shift();
    if (!reply) throw new Error('no more replies scripted');
    if (reply instanceof Error) throw reply;
    const text = reply.raw ?? JSON.stringify(reply.body);
    return new Response(text, { status: reply.status ?? 200, headers: { 'content-type': 'application/json' } });
  }) as unknown as typeof globalThis.fetch;
  return { api: accountApi({ apiUrl: API, getIdToken: async () => token ?? undefined, fetch }), calls };
}

describe('account API client: the ledger', () => {
  it('sends the token, asks for a page and follows the cursor until the last page', async () => {
    const { api, calls } = withServer([
      { body: { entries: [entry(3), entry(2)], nextCursor: 'c1' } },
      { body: { entries: [entry(1)] } },
    ]);
    const first = await api.ledger({ limit: 2 });
    expect(first.entries.map((e) => e.id)).toEqual(['e3', 'e2']);
    expect(first.nextCursor).toBe('c1');
    const second = await api.ledger({ limit: 2, cursor: first.nextCursor });
    expect(second.entries.map((e) => e.id)).toEqual(['e1']);
    expect(second.nextCursor).toBeUndefined();

    expect(calls.map((c) => c.url)).toEqual([`${API}/me/ledger?limit=2`, `${API}/me/ledger?limit=2&cursor=c1`]);
    expect(calls.every((c) => (c.init.headers as Record<string, string>).authorization === 'Bearer id-token')).toBe(true);
    expect(calls.every((c) => c.init.method === 'GET' && c.init.body === undefined)).toBe(true);
  });

  it('encodes a cursor that holds URL characters', async () => {
    const { api, calls } = withServer([{ body: { entries: [] } }]);
    await api.ledger({ cursor: 'a+b/c=&d' });
    expect(new URL(calls[0].url).searchParams.get('cursor')).toBe('a+b/c=&d');
  });

  it.each([
    ['a missing entries list', { nextCursor: 'x' }, 'entries'],
    ['a fractional credit change', { entries: [{ ...entry(1), credits: 1.5 }] }, 'entries.0.credits'],
    ['a negative balance', { entries: [{ ...entry(1), balanceAfter: -1 }] }, 'entries.0.balanceAfter'],
    ['an unknown kind', { entries: [{ ...entry(1), kind: 'gift' }] }, 'entries.0.kind'],
    ['a date that is not one', { entries: [{ ...entry(1), at: 'yesterday' }] }, 'entries.0.at'],
  ])('rejects an answer with %s, naming the field', async (_, body, field) => {
    const { api } = withServer([{ body }]);
    const err = await api.ledger().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(UnexpectedAnswerError);
    expect((err as Error).message).toContain('GET /me/ledger');
    expect((err as Error).message).toContain(`(${field}:`);
  });

  it('rejects a page whose next cursor is the one it was asked with (it would never end)', async () => {
    const { api } = withServer([{ body: { entries: [entry(1)], nextCursor: 'same' } }]);
    await expect(api.ledger({ cursor: 'same' })).rejects.toThrow('nextCursor: the same page again');
  });

  it('rejects an answer that is not JSON', async () => {
    const { api } = withServer([{ raw: '<html>gateway</html>' }]);
    await expect(api.ledger()).rejects.toThrow(new UnexpectedAnswerError('The server sent an unreadable answer to GET /me/ledger', 200));
  });
});

describe('account API client: failures', () => {
  it('asks to sign in again on 401, and without a token does not call at all', async () => {
    const expired = withServer([{ status: 401, body: { message: 'Unauthorized' } }]);
    await expect(expired.api.ledger()).rejects.toMatchObject({ status: 401, message: SESSION_ENDED_MESSAGE });

    const signedOut = withServer([], null);
    await expect(signedOut.api.updateLikeness([])).rejects.toMatchObject({ status: 401, message: SESSION_ENDED_MESSAGE });
    expect(signedOut.calls).toEqual([]);
  });

  it("passes the server's own error text on (a 400's reason, a 429's wait)", async () => {
    const { api } = withServer([
      { status: 400, body: { error: 'cursor is not one this list gave out' } },
      { status: 429, body: { error: 'Too many requests. Try again in a minute.' } },
    ]);
    await expect(api.ledger({ cursor: 'x' })).rejects.toMatchObject({ status: 400, message: 'cursor is not one this list gave out' });
    await expect(api.updateLikeness([])).rejects.toMatchObject({ status: 429, message: 'Too many requests. Try again in a minute.' });
  });

  it('says which call failed when the server gives no reason, and words a network failure', async () => {
    const { api } = withServer([{ status: 503, raw: '' }, new TypeError('fetch failed')]);
    await expect(api.ledger()).rejects.toThrow('GET /me/ledger failed (HTTP 503). Try again in a moment.');
    const err = await api.ledger().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ApiError);
    expect(err).toMatchObject({ status: 0, message: 'We could not reach the server. Check your connection and try again.' });
  });
});

describe('account API client: the likeness', () => {
  it('patches the excluded industries and returns the checked likeness', async () => {
    const likeness = { talentId: 't1', name: 'Ana Lima', status: 'hidden', founding: true, excludedIndustries: ['religion', 'alcohol'] };
    const { api, calls } = withServer([{ body: likeness }, { body: { ...likeness, excludedIndustries: ['gambling'] } }]);
    await expect(api.updateLikeness(['religion', 'alcohol'])).resolves.toEqual(likeness);
    expect(calls[0].url).toBe(`${API}/me/likeness`);
    expect(calls[0].init.method).toBe('PATCH');
    expect(JSON.parse(String(calls[0].init.body))).toEqual({ excludedIndustries: ['religion', 'alcohol'] });
    await expect(api.updateLikeness(['religion'])).rejects.toThrow(/PATCH \/me\/likeness \(excludedIndustries\.0:/);
  });
});
