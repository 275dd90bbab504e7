import { ApiError, SESSION_ENDED_MESSAGE } from '../../../web/src/api/client';
import { checkNote, likenessModelApi, NOTE_MAX_LENGTH, NOTE_REQUIRED_MESSAGE } from '../../../web/src/pages/portal/training/api';

const API = 'https://api.example.test';

type Reply = { status?: number; body?: unknown };

/** The API with a scripted server: each call answers the next reply. */
function withServer(replies: Reply[], token: string | null = 'talent-token') {
  const calls: Array<{ url: string; init: RequestInit }> = [];
  const fetch = (async (url: string, init: RequestInit) => {
    calls.push({ url, init });
    const reply = replies.shift();
    if (!reply) throw new Error('no more replies scripted');
    return new Response(JSON.stringify(reply.body), { status: reply.status ?? 200, headers: { 'content-type': 'application/json' } });
  }) as unknown as typeof globalThis.fetch;
  return { api: likenessModelApi({ apiUrl: API, getIdToken: async () => token ?? undefined, fetch }), calls };
}

const ready = {
  state: 'ready-for-review',
  latest: {
    trainingId: 'trn_abcdefghijklmnopqrst',
    number: 1,
    status: 'ready-for-review',
    createdAt: '2026-11-20T10:00:00.000Z',
    readyAt: '2026-11-20T10:21:00.000Z',
    samples: [{ prompt: 'A head-and-shoulders portrait photo', url: 'https://bucket.test/samples/trn_a/1.png?sig=1' }],
  },
  retrainsLeft: 3,
};
const live = {
  state: 'live',
  latest: { ...ready.latest, status: 'approved' },
  live: { trainingId: ready.latest.trainingId, number: 1, approvedAt: '2026-11-20T11:00:00.000Z', samples: ready.latest.samples },
  retrainsLeft: 3,
};

describe('likeness model API client', () => {
  it("reads the talent's own model with the token, checked against the contract", async () => {
    const { api, calls } = withServer([{ body: ready }, { body: { ...ready, state: 'asleep' } }]);
    await expect(api.model()).resolves.toEqual(ready);
    expect(calls[0].url).toBe(`${API}/me/likeness-model`);
    expect(calls[0].init.method).toBe('GET');
    expect((calls[0].init.headers as Record<string, string>).authorization).toBe('Bearer talent-token');
    await expect(api.model()).rejects.toThrow(/GET \/me\/likeness-model \(state:/);
  });

  it('approves with no body, naming no talent', async () => {
    const { api, calls } = withServer([{ body: live }]);
    await expect(api.approve()).resolves.toEqual(live);
    expect(calls[0]).toMatchObject({ url: `${API}/me/likeness-model/approve`, init: { method: 'POST' } });
    expect(calls[0].init.body).toBeUndefined();
  });

  it('sends "This isn\'t me" with the trimmed note and reads whether a training started', async () => {
    const retraining = { ...ready, state: 'retraining', latest: { ...ready.latest, trainingId: 'trn_bcdefghijklmnopqrstu', number: 2, status: 'preparing', samples: [] }, retrainsLeft: 2, retraining: true };
    const withTeam = { ...ready, state: 'failed', retrainsLeft: 0, retraining: false, message: 'Our team will look at your photos and contact you.' };
    const { api, calls } = withServer([{ status: 202, body: retraining }, { body: withTeam }]);
    await expect(api.reject('  My nose is wrong  ')).resolves.toEqual(retraining);
    expect(calls[0].url).toBe(`${API}/me/likeness-model/reject`);
    expect(JSON.parse(String(calls[0].init.body))).toEqual({ note: 'My nose is wrong' });
    await expect(api.reject('Still not me')).resolves.toMatchObject({ retraining: false, message: withTeam.message });
  });

  it('refuses an empty or too long note before calling', async () => {
    const { api, calls } = withServer([]);
    await expect(api.reject('   ')).rejects.toThrow(NOTE_REQUIRED_MESSAGE);
    await expect(api.reject('x'.repeat(NOTE_MAX_LENGTH + 1))).rejects.toThrow(`at most ${NOTE_MAX_LENGTH} characters (it has ${NOTE_MAX_LENGTH + 1})`);
    expect(calls).toEqual([]);
    expect(checkNote(` ${'y'.repeat(NOTE_MAX_LENGTH)} `)).toEqual({ note: 'y'.repeat(NOTE_MAX_LENGTH) });
  });

  it("passes the server's refusal on in its words", async () => {
    const { api } = withServer([{ status: 409, body: { error: 'There is no new version of your likeness model waiting for your review.' } }]);
    const err = await api.approve().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ApiError);
    expect(err).toMatchObject({ status: 409, message: 'There is no new version of your likeness model waiting for your review.' });
  });

  it('does not call at all without a token', async () => {
    const { api, calls } = withServer([], null);
    await expect(api.model()).rejects.toMatchObject({ status: 401, message: SESSION_ENDED_MESSAGE });
    expect(calls).toEqual([]);
  });
});
