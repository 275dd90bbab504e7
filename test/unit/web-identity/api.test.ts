import { UnexpectedAnswerError } from '../../../web/src/api/client';
import { IdentityApiError, identityApi } from '../../../web/src/pages/founding-identity/api';
import { API, TOKEN, server, status } from './support';

const api = (fetch: typeof globalThis.fetch) => identityApi({ apiUrl: API, fetch });

describe("the applicant's identity API client", () => {
  it('reads where the applicant stands with the token in the body, never in the URL, and without a sign-in', async () => {
    const answer = status();
    const { fetch, calls } = server([{ body: answer }]);
    await expect(api(fetch).status(TOKEN)).resolves.toEqual(answer);
    expect(calls).toHaveLength(1);
    expect(calls[0]).toMatchObject({ url: `${API}/founding-identity`, method: 'POST', body: { token: TOKEN } });
    expect(calls[0]!.url).not.toContain(TOKEN);
    expect(calls[0]!.headers.authorization).toBeUndefined();
  });

  it('signs with the face answer, the typed name and the version shown', async () => {
    const signed = status({ faceConsent: 'declined', state: 'manual', consent: { ...status().consent, signedAt: '2026-11-28T10:00:00.000Z' } });
    const { fetch, calls } = server([{ body: signed }]);
    await expect(api(fetch).consent({ token: TOKEN, faceConsent: false, typedName: 'Ada Lovelace', consentVersion: '2026-11-27' })).resolves.toEqual(signed);
    expect(calls[0]).toMatchObject({
      url: `${API}/founding-identity/consent`,
      body: { token: TOKEN, faceConsent: false, typedName: 'Ada Lovelace', consentVersion: '2026-11-27' },
    });
  });

  it("opens the ID verification with the token in the body and answers Stripe's page", async () => {
    const { fetch, calls } = server([{ body: { url: 'https://verify.stripe.test/start/vs_123' } }]);
    await expect(api(fetch).verification(TOKEN)).resolves.toEqual({ url: 'https://verify.stripe.test/start/vs_123' });
    expect(calls[0]).toMatchObject({ url: `${API}/founding-identity/verification`, method: 'POST', body: { token: TOKEN } });
    expect(calls[0]!.headers.authorization).toBeUndefined();
  });

  it('refuses a verification answer without a page to go to', async () => {
    const { fetch } = server([{ body: { url: 'not a url' } }]);
    await expect(api(fetch).verification(TOKEN)).rejects.toBeInstanceOf(UnexpectedAnswerError);
  });

  it('asks for one upload per replacement photo and refuses an answer with another count', async () => {
    const uploads = (n: number) => ({
      uploads: Array.from({ length: n }, (_, i) => ({ url: `https://bucket.test/r${i}`, key: `r${i}`, headers: {} })),
      expiresAt: '2026-11-28T10:15:00.000Z',
    });
    const files = [
      { contentType: 'image/jpeg', size: 10 },
      { contentType: 'image/png', size: 20 },
    ] as const;
    const { fetch, calls } = server([{ body: uploads(2) }, { body: uploads(1) }]);
    const client = api(fetch);
    await expect(client.replacementUploads(TOKEN, files)).resolves.toEqual(uploads(2));
    expect(calls[0]!.body).toEqual({ token: TOKEN, files: [...files] });
    const short = await client.replacementUploads(TOKEN, files).catch((e: unknown) => e);
    expect(short).toBeInstanceOf(UnexpectedAnswerError);
    expect((short as Error).message).toContain('uploads: 1 for 2 files');
  });

  it('submits the photos to remove and the new keys', async () => {
    const checking = status({ faceConsent: 'given', state: 'checking' });
    const { fetch, calls } = server([{ body: checking }]);
    await expect(api(fetch).submitReplacements({ token: TOKEN, remove: [2, 5], keys: ['r0'] })).resolves.toEqual(checking);
    expect(calls[0]).toMatchObject({ url: `${API}/founding-identity/replacements`, body: { token: TOKEN, remove: [2, 5], keys: ['r0'] } });
  });

  it('keeps the fields a refusal names, with its status and text', async () => {
    const { fetch } = server([
      { status: 400, body: { error: 'typedName: the name does not match the application', fields: { typedName: 'Type the full name you applied with.', bad: 3 } } },
      { status: 410, body: { error: 'This link has expired.' } },
    ]);
    const client = api(fetch);
    const refused = await client.consent({ token: TOKEN, faceConsent: true, typedName: 'Someone', consentVersion: '2026-11-27' }).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(IdentityApiError);
    expect(refused).toMatchObject({ status: 400, fields: { typedName: 'Type the full name you applied with.' } });
    expect(Object.keys((refused as IdentityApiError).fields)).toEqual(['typedName']);
    await expect(client.status(TOKEN)).rejects.toMatchObject({ status: 410, serverError: 'This link has expired.', fields: {} });
  });

  it('refuses an answer that is not the contract, naming the field', async () => {
    const { fetch } = server([{ body: { ...status(), state: 'somewhere-else' } }]);
    const err = await api(fetch).status(TOKEN).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(UnexpectedAnswerError);
    expect((err as Error).message).toMatch(/POST \/founding-identity \(state:/);
  });
});
