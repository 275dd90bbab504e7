import type { IdentityStatus } from '../../../events/identity';
import { CONSENT_TEXT, CONSENT_VERSION, FACE_CONSENT_TEXT, FACE_CONSENT_VERSION } from '../../../events/identity';

export const API = 'https://api.identity.test';
/** 43 base64url characters, like the server's tokens. */
export const TOKEN = 'tok_identity_unit_0123456789abcdefghijklmno';

/** An answer of the identity routes, with the fields a test sets over a fresh applicant's. */
export function status(over: Partial<IdentityStatus> = {}): IdentityStatus {
  return {
    applicationId: 'app-identity-1',
    firstName: 'Ada',
    state: 'awaiting-consent',
    faceConsent: 'pending',
    consent: { version: CONSENT_VERSION, text: CONSENT_TEXT, faceVersion: FACE_CONSENT_VERSION, faceText: FACE_CONSENT_TEXT },
    selfie: { state: 'none' },
    verification: { state: 'not-started', sessionsLeft: 5 },
    ...over,
  };
}

interface Call {
  url: string;
  method: string;
  headers: Record<string, string>;
  body: unknown;
}

/** A scripted server: each call takes the next reply; every call is kept, its JSON body parsed. */
export function server(replies: Array<{ status?: number; body?: unknown } | Error>) {
  const calls: Call[] = [];
  const fetch = (async (url: string, init: RequestInit = {}) => {
    const raw = init.body;
    calls.push({
      url,
      method: init.method ?? 'GET',
      headers: { ...(init.headers as Record<string, string>) },
      body: typeof raw === 'string' ? JSON.parse(raw) : raw,
    });
    const reply = replies.shift();
    if (!reply) throw new Error(`no reply scripted for ${init.method} ${url}`);
    if (reply instanceof Error) throw reply;
    return new Response(reply.body === undefined ? null : JSON.stringify(reply.body), { status: reply.status ?? 200, headers: { 'content-type': 'application/json' } });
  }) as unknown as typeof globalThis.fetch;
  return { fetch, calls, left: () => replies.length };
}
