// The site's one API client (web/src/api/client.ts) as the public forms, the catalog, the auth
// context and the portals' downloads use it: each keeps its own words for a failure.
import { ApiError, SESSION_ENDED_MESSAGE, postJson } from '../../../web/src/api/client';
import { ContactValidationError, sendContactMessage } from '../../../web/src/api/contact';
import { recordConversion } from '../../../web/src/api/events';
import { TalentNotFoundError, fetchTalent } from '../../../web/src/api/talent';
import { fetchMe } from '../../../web/src/auth/me-api';
import { likenessApi } from '../../../web/src/pages/portal/likeness/api';
import { royaltiesApi } from '../../../web/src/pages/portal/royalties/api';

const API = 'https://api.example.test';

interface Reply {
  status?: number;
  statusText?: string;
  body?: unknown;
  raw?: string;
  headers?: Record<string, string>;
}

/** Answers each fetch with the next reply (an Error is a network failure) and records the calls. */
function serve(replies: Array<Reply | Error>) {
  const calls: Array<{ url: string; init: RequestInit }> = [];
  const fetch = (async (url: string, init: RequestInit) => {
    calls.push({ url, init });
    const reply = replies.shift();
    if (!reply) throw new Error('no more replies scripted');
    if (reply instanceof Error) throw reply;
    const text = reply.raw ?? JSON.stringify(reply.body);
    return new Response(text, { status: reply.status ?? 200, statusText: reply.statusText, headers: { 'content-type': 'application/json', ...reply.headers } });
  }) as unknown as typeof globalThis.fetch;
  return { fetch, calls };
}

/** The same server as the global fetch, for the modules that use it. */
function serveGlobally(replies: Array<Reply | Error>) {
  const server = serve(replies);
  jest.spyOn(globalThis, 'fetch').mockImplementation(server.fetch);
  return server;
}

afterEach(() => jest.restoreAllMocks());

describe('public forms (postJson)', () => {
  it('posts JSON without a token and answers the parsed body', async () => {
    const { calls } = serveGlobally([{ body: { success: true } }]);
    await expect(postJson(API, '/early-signup', { email: 'a@b.example' })).resolves.toEqual({ success: true });
    expect(calls[0].url).toBe(`${API}/early-signup`);
    expect(calls[0].init.method).toBe('POST');
    expect(calls[0].init.body).toBe(JSON.stringify({ email: 'a@b.example' }));
    const headers = calls[0].init.headers as Record<string, string>;
    expect(headers['content-type']).toBe('application/json');
    expect(headers.authorization).toBeUndefined();
  });

  it("words failures in the browser's and the server's own terms", async () => {
    serveGlobally([
      new TypeError('Failed to fetch'),
      { status: 409, body: { error: 'An application already exists' } },
      { status: 502, statusText: 'Bad Gateway', raw: '<html>' },
      { status: 503, raw: '' },
      { status: 200, raw: 'not json' },
    ]);
    await expect(postJson(API, '/x', {})).rejects.toMatchObject({ status: 0, message: 'Failed to fetch' });
    await expect(postJson(API, '/x', {})).rejects.toMatchObject({ status: 409, message: 'An application already exists', serverError: 'An application already exists' });
    await expect(postJson(API, '/x', {})).rejects.toMatchObject({ status: 502, message: 'Bad Gateway', serverError: undefined });
    await expect(postJson(API, '/x', {})).rejects.toMatchObject({ status: 503, message: 'HTTP 503' });
    await expect(postJson(API, '/x', {})).rejects.toMatchObject({ status: 200, message: 'The server sent an unreadable response' });
  });
});

describe('the contact form', () => {
  const message = { firstName: 'Ana', lastName: 'Lima', email: 'ana@people.example', subject: 'Hi', message: 'Hello' };

  it("maps a 400's fields to the form's words", async () => {
    serveGlobally([{ status: 400, body: { error: 'Invalid request', fields: { firstName: 'firstName is required', other: 'x' } } }]);
    const err = await sendContactMessage(API, message).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ContactValidationError);
    expect(err).toMatchObject({ status: 400, message: 'Invalid request', fields: { firstName: 'Please enter your first name.' } });
  });

  it('needs the server to confirm the message', async () => {
    serveGlobally([{ status: 202, body: { received: true } }, { status: 202, body: {} }, { status: 202, raw: '' }]);
    await expect(sendContactMessage(API, message)).resolves.toEqual({ received: true });
    await expect(sendContactMessage(API, message)).rejects.toThrow('The server did not confirm the message');
    await expect(sendContactMessage(API, message)).rejects.toThrow('The server did not confirm the message');
  });
});

describe('the talent catalog', () => {
  it('reads a 404 as a talent not found, and names the status of any other refusal', async () => {
    serveGlobally([{ status: 404, body: { error: 'Not found' } }, { status: 500, body: { error: 'boom' } }]);
    await expect(fetchTalent(API, 'maya-chen')).rejects.toBeInstanceOf(TalentNotFoundError);
    await expect(fetchTalent(API, 'maya-chen')).rejects.toMatchObject({ status: 500, message: 'The talent catalog answered HTTP 500' });
  });
});

describe('GET /me', () => {
  it('sends the token it is given, and reads a refusal as its status or the reason', async () => {
    const { calls } = serveGlobally([{ status: 401, raw: '' }, { status: 403, body: { error: 'This account is disabled' } }]);
    await expect(fetchMe(API, 'tok')).rejects.toMatchObject({ status: 401, message: 'HTTP 401' });
    await expect(fetchMe(API, 'tok')).rejects.toMatchObject({ status: 403, message: 'This account is disabled' });
    expect((calls[0].init.headers as Record<string, string>).authorization).toBe('Bearer tok');
  });
});

describe('the portals downloads', () => {
  it("names the file as the server does, or after the statement when it does not", async () => {
    const { fetch, calls } = serve([
      { raw: 'a,b\n', headers: { 'content-type': 'text/csv', 'content-disposition': 'attachment; filename="humanly-2026-10.csv"' } },
      { raw: 'a,b\n', headers: { 'content-type': 'text/csv' } },
    ]);
    const api = royaltiesApi({ apiUrl: API, getIdToken: async () => 'tok', fetch });
    const named = await api.statementCsv('abcdef123456');
    expect(named.filename).toBe('humanly-2026-10.csv');
    expect(await named.blob.text()).toBe('a,b\n');
    expect((await api.statementCsv('abcdef123456')).filename).toBe('humanly-statement-abcdef1.csv');
    expect(calls[0].url).toBe(`${API}/me/statements/abcdef123456/csv`);
    expect(calls[0].init.headers).toMatchObject({ accept: 'text/csv', authorization: 'Bearer tok' });
  });

  it('says what could not be downloaded, and asks to sign in again on 401 or without a token', async () => {
    const { fetch } = serve([{ status: 500, raw: '' }, { status: 429, body: { error: 'Too many requests' } }, { status: 401, raw: '' }, new TypeError('fetch failed')]);
    const api = likenessApi({ apiUrl: API, getIdToken: async () => 'tok', fetch });
    await expect(api.exportData()).rejects.toMatchObject({ status: 500, message: 'Your data could not be downloaded (HTTP 500). Try again.' });
    await expect(api.exportData()).rejects.toMatchObject({ status: 429, message: 'Too many requests' });
    await expect(api.exportData()).rejects.toMatchObject({ status: 401, message: SESSION_ENDED_MESSAGE });
    await expect(api.exportData()).rejects.toMatchObject({ status: 0, message: 'We could not reach the server. Check your connection and try again.' });

    const signedOut = likenessApi({ apiUrl: API, getIdToken: async () => undefined, fetch: serve([]).fetch });
    const err = await signedOut.exportData().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ApiError);
    expect(err).toMatchObject({ status: 401, message: SESSION_ENDED_MESSAGE });
  });
});

describe('conversions', () => {
  it('never fails the page, whatever the API does', async () => {
    const { calls } = serveGlobally([new TypeError('Failed to fetch')]);
    expect(() => recordConversion(API, 'waitlist')).not.toThrow();
    await new Promise((resolve) => setImmediate(resolve));
    expect(calls[0].url).toBe(`${API}/events/conversion`);
    expect(calls[0].init).toMatchObject({ method: 'POST', keepalive: true, body: JSON.stringify({ type: 'waitlist' }) });
  });
});
