import { ApiError, SESSION_ENDED_MESSAGE, UnexpectedAnswerError } from '../../../web/src/api/client';
import { LICENSE_NOT_FOUND_MESSAGE, LicenseNotFoundError, generationApi } from '../../../web/src/generation/api';

const API = 'https://api.example.test';
const at = '2026-11-25T10:00:00.000Z';
const LICENSE = 'lic_AbCdEfGhIjKlMnOpQrStUv';
const generation = {
  id: 'g1', talentId: 'maya-chen', talentName: 'Maya Chen', prompt: 'a portrait', style: 'Portrait', count: 1, status: 'succeeded',
  createdAt: at, updatedAt: at, creditsSpent: 1, images: [{ index: 0, licenseId: LICENSE, url: 'https://files.example/x.png?sig' }],
};
const license = { id: LICENSE, talentId: 'maya-chen', talentName: 'Maya Chen', licensee: 'Rita Lopes', issuedAt: at, scope: 'commercial', style: 'Portrait', image: 'stored' };

interface Call {
  url: string;
  init: RequestInit;
}

function withServer(replies: Array<{ status?: number; body?: unknown; raw?: string } | Error>, token: string | null = 'id-token') {
  const calls: Call[] = [];
  const fetch = (async (url: string, init: RequestInit) => {
    calls.push({ url, init });
    const reply = replies.shift();
    if (!reply) throw new Error('no more replies scripted');
    if (reply instanceof Error) throw reply;
    return new Response(reply.raw ?? JSON.stringify(reply.body), { status: reply.status ?? 200, headers: { 'content-type': 'application/json' } });
  }) as unknown as typeof globalThis.fetch;
  const headers = (n: number) => calls[n].init.headers as Record<string, string>;
  return { api: generationApi({ apiUrl: API, getIdToken: async () => token ?? undefined, fetch }), calls, headers };
}

describe('generation API client', () => {
  it('starts a generation with the token, the body and the idempotency key, and reads it back', async () => {
    const { api, calls, headers } = withServer([{ status: 202, body: { id: 'g1', status: 'queued' } }, { body: generation }]);
    const started = await api.start({ talentId: 'maya-chen', prompt: 'a portrait', style: 'Portrait', count: 1 }, 'key-1');
    expect(started).toEqual({ id: 'g1', status: 'queued' });
    expect(calls[0].url).toBe(`${API}/generations`);
    expect(calls[0].init.method).toBe('POST');
    expect(JSON.parse(String(calls[0].init.body))).toEqual({ talentId: 'maya-chen', prompt: 'a portrait', style: 'Portrait', count: 1 });
    expect(headers(0)).toMatchObject({ authorization: 'Bearer id-token', 'idempotency-key': 'key-1', 'content-type': 'application/json' });

    expect((await api.get('g1')).images[0].licenseId).toBe(LICENSE);
    expect(calls[1].url).toBe(`${API}/generations/g1`);
  });

  it("shows the server's words for a refusal (not enough credits)", async () => {
    const { api } = withServer([{ status: 409, body: { error: 'Not enough credits: this needs 4 and your balance is 2.' } }]);
    const err = await api.start({ talentId: 'maya-chen', prompt: 'x', style: 'Portrait', count: 4 }, 'k').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ApiError);
    expect(err).toMatchObject({ status: 409, message: 'Not enough credits: this needs 4 and your balance is 2.' });
  });

  it('refuses answers that break the contract, naming the field', async () => {
    const { api } = withServer([
      { body: { ...generation, status: 'done' } },
      { body: { ...generation, id: 'g2' } },
      { body: { ...generation, creditsSpent: 1.5 } },
    ]);
    await expect(api.get('g1')).rejects.toThrow(/status/);
    await expect(api.get('g1')).rejects.toThrow(/another generation/);
    const err = await api.get('g1').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(UnexpectedAnswerError);
    expect((err as Error).message).toContain('creditsSpent');
  });

  it('pages the history with the cursor, and refuses a cursor that repeats the same page', async () => {
    const { api, calls } = withServer([{ body: { generations: [generation], nextCursor: 'c+1/=' } }, { body: { generations: [], nextCursor: 'c+1/=' } }]);
    const first = await api.history();
    expect(first.nextCursor).toBe('c+1/=');
    await expect(api.history(first.nextCursor)).rejects.toThrow(/same page again/);
    expect(calls[0].url).toBe(`${API}/me/generations`);
    expect(new URL(calls[1].url).searchParams.get('cursor')).toBe('c+1/=');
  });

  it('asks for a download only for a license id, and only accepts a web address back', async () => {
    const { api, calls } = withServer([
      { body: { url: 'https://files.example/a.png?sig', filename: `humanly-maya-chen-${LICENSE}.png`, expiresAt: at } },
      { body: { url: 'javascript:alert(1)', filename: 'x.png', expiresAt: at } },
    ]);
    expect((await api.download(LICENSE)).filename).toBe(`humanly-maya-chen-${LICENSE}.png`);
    expect(calls[0].url).toBe(`${API}/licenses/${LICENSE}/download`);
    await expect(api.download(LICENSE)).rejects.toThrow(/not a web address/);
    await expect(api.download('../me')).rejects.toBeInstanceOf(LicenseNotFoundError);
    expect(calls).toHaveLength(2);
  });

  it('reads a public license without a token, and says "License not found" for a 404 or a malformed id', async () => {
    const { api, calls, headers } = withServer([{ body: license }, { status: 404, body: { error: 'License not found' } }], null);
    expect(await api.license(LICENSE)).toEqual(license);
    expect(headers(0).authorization).toBeUndefined();
    const err = await api.license('lic_BbCdEfGhIjKlMnOpQrStUv').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(LicenseNotFoundError);
    expect((err as Error).message).toBe(LICENSE_NOT_FOUND_MESSAGE);
    await expect(api.license('lic_x')).rejects.toBeInstanceOf(LicenseNotFoundError);
    expect(calls).toHaveLength(2);
  });

  it('sends a file to its license check as it is, with its type and no token; names the thumbnail; words the refusals', async () => {
    const { api, calls, headers } = withServer(
      [
        { body: { license, file: 'other-image' } },
        { status: 429, body: { error: 'This network has checked 60 files in the last hour, the limit. Please try again later.' } },
        { status: 404, body: { error: 'License not found' } },
      ],
      null,
    );
    const file = new Blob([new Uint8Array([0x89, 0x50, 0x4e, 0x47])], { type: 'image/png' });
    expect(await api.checkFile(LICENSE, file)).toEqual({ license, file: 'other-image' });
    expect(calls[0].url).toBe(`${API}/licenses/${LICENSE}/check`);
    expect(calls[0].init.method).toBe('POST');
    expect(calls[0].init.body).toBe(file);
    expect(headers(0)['content-type']).toBe('image/png');
    expect(headers(0).authorization).toBeUndefined();
    await expect(api.checkFile(LICENSE, file)).rejects.toThrow('This network has checked 60 files in the last hour');
    await expect(api.checkFile(LICENSE, file)).rejects.toBeInstanceOf(LicenseNotFoundError);
    await expect(api.checkFile('lic_x', file)).rejects.toBeInstanceOf(LicenseNotFoundError);
    expect(calls).toHaveLength(3);
    expect(api.thumbnailUrl(LICENSE)).toBe(`${API}/licenses/${LICENSE}/thumbnail`);
  });

  it('asks to sign in again when there is no token or the API answers 401', async () => {
    const signedOut = withServer([], null);
    await expect(signedOut.api.likenessUsage()).rejects.toThrow(SESSION_ENDED_MESSAGE);
    expect(signedOut.calls).toHaveLength(0);
    const expired = withServer([{ status: 401, body: { message: 'Unauthorized' } }]);
    await expect(expired.api.history()).rejects.toMatchObject({ status: 401, message: SESSION_ENDED_MESSAGE });
  });

  it('reads the likeness usage', async () => {
    const { api, calls } = withServer([{ body: { talentId: 'maya-chen', total: 7, months: [{ month: '2026-11', images: 4 }, { month: '2026-10', images: 3 }] } }]);
    expect((await api.likenessUsage()).total).toBe(7);
    expect(calls[0].url).toBe(`${API}/me/likeness-usage`);
  });
});
