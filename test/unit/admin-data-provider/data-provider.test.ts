// The console's data provider (admin/src/dataProvider.ts): the custom calls go through the one
// HTTP client under /admin, and the erasure page reads its failures as it always has.
import { HttpError } from 'react-admin';
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

/** An HTTP client that records each call and answers with `answer` (or throws what it returns). */
function client(answer: (path: string, options: Options) => unknown) {
  const calls: Array<{ path: string; options: Options }> = [];
  const http = (async (path: string, options: Options = {}) => {
    calls.push({ path, options });
    const result = answer(path, options);
    if (result instanceof Error) throw result;
    return { status: 200, headers: new Headers(), body: JSON.stringify(result), json: result };
  }) as HttpClient;
  return { dataProvider: createDataProvider('https://api.example.test', http), calls };
}

describe('console data provider: erasure', () => {
  const result = { id: 'er1', erasedAt: '2026-11-25T10:00:00.000Z', removed: { waitlist: 1 } };

  it('posts the address and its confirmation to /erasures', async () => {
    const { dataProvider, calls } = client(() => result);
    await expect(dataProvider.eraseData('ana@people.example', 'ana@people.example')).resolves.toEqual({ data: result });
    expect(calls[0].path).toBe('/erasures');
    expect(calls[0].options?.method).toBe('POST');
    expect(JSON.parse(String(calls[0].options?.body))).toEqual({ email: 'ana@people.example', confirm: 'ana@people.example' });
  });

  it("says the API's reason, or the status when it gave none, and that an ended session must sign in again", async () => {
    const reasons = [new HttpError('Bad Request', 400, { error: 'The confirmation does not match the address' }), new HttpError('Bad Gateway', 502, null)];
    const { dataProvider } = client(() => reasons.shift());
    await expect(dataProvider.eraseData('a@b.example', 'x')).rejects.toHaveProperty('message', 'The confirmation does not match the address');
    await expect(dataProvider.eraseData('a@b.example', 'a@b.example')).rejects.toHaveProperty('message', 'The erasure failed (HTTP 502).');

    const signedOut = client((_path, options) => options?.whenSignedOut?.() ?? new HttpError('Not signed in', 401));
    await expect(signedOut.dataProvider.eraseData('a@b.example', 'a@b.example')).rejects.toHaveProperty('message', 'Your session has ended. Sign in again.');
  });
});

describe('console data provider: exclusive contracts', () => {
  it("reads, records and ends a talent's contract at /talent/{id}/exclusive-contract", async () => {
    const answer = { history: [] };
    const { dataProvider, calls } = client(() => answer);
    const request = { accountId: 'acc-1', brandName: 'Ada Brand', until: '2027-01-01T00:00:00.000Z' };
    await expect(dataProvider.getExclusiveContract('maya chen')).resolves.toEqual({ data: answer });
    await dataProvider.recordExclusiveContract('maya chen', request);
    await dataProvider.endExclusiveContract('maya chen');
    expect(calls.map((c) => [c.options?.method ?? 'GET', c.path])).toEqual([
      ['GET', '/talent/maya%20chen/exclusive-contract'],
      ['POST', '/talent/maya%20chen/exclusive-contract'],
      ['DELETE', '/talent/maya%20chen/exclusive-contract'],
    ]);
    expect(JSON.parse(String(calls[1].options?.body))).toEqual(request);
  });
});
