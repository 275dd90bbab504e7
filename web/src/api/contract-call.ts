// Calls of signed-in (and public) pages whose answers are checked against the shared contract
// (events/*.ts) before a page sees them: one JSON call with the person's id token, and one check
// that names the first field an answer gets wrong. The portals' and the create page's API
// clients (account/api.ts, generation/api.ts) are built on these.
import { ApiError } from './http';

/** An answer that does not match the contract (a bug or a proxy's page, never the person's fault). */
export class UnexpectedAnswerError extends ApiError {
  override name = 'UnexpectedAnswerError';
}

/** The session is gone (HTTP 401): the person must sign in again. */
export const SESSION_ENDED_MESSAGE = 'Your session has ended. Sign in again to continue.';
const NETWORK_MESSAGE = 'We could not reach the server. Check your connection and try again.';

interface Schema<T> {
  safeParse(value: unknown): { success: true; data: T } | { success: false; error: { issues: { path: PropertyKey[]; message: string }[] } };
}

/** Checks an answer against its schema; names the first problem when it does not match. */
export function check<T>(schema: Schema<T>, body: unknown, what: string, status: number): T {
  const parsed = schema.safeParse(body);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  const where = issue?.path.length ? issue.path.map(String).join('.') : 'the answer';
  throw new UnexpectedAnswerError(`The server sent an unexpected answer to ${what} (${where}: ${issue?.message ?? 'invalid'})`, status);
}

/** A 2xx answer's parsed body, with its status and the call in words (`GET /me/ledger`) for messages. */
interface Answer {
  status: number;
  json: unknown;
  what: string;
}

export interface CallerOptions {
  apiUrl: string;
  /** A current id token, or undefined when signed out (the auth context's getIdToken). Public calls need none. */
  getIdToken?: () => Promise<string | undefined>;
  /** For tests; defaults to the global fetch. */
  fetch?: typeof fetch;
}

export type Call = (
  method: 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE',
  path: string,
  options?: { body?: unknown; headers?: Record<string, string>; signedIn?: boolean },
) => Promise<Answer>;

/**
 * Sends JSON calls to the API. A signed-in call (the default) carries the id token and answers
 * 401 with SESSION_ENDED_MESSAGE; any other non-2xx throws ApiError with the server's `{error}`
 * text when it sent one; a network failure is status 0; an unreadable 2xx is UnexpectedAnswerError.
 */
export function jsonCaller({ apiUrl, getIdToken, fetch: fetchImpl = (...args) => fetch(...args) }: CallerOptions): Call {
  return async (method, path, opts = {}) => {
    const what = `${method} ${path.split('?')[0]}`;
    const signedIn = opts.signedIn ?? true;
    const token = signedIn ? await getIdToken?.() : undefined;
    if (signedIn && !token) throw new ApiError(SESSION_ENDED_MESSAGE, 401);
    let res: Response;
    try {
      res = await fetchImpl(`${apiUrl}${path}`, {
        method,
        headers: {
          accept: 'application/json',
          ...(token ? { authorization: `Bearer ${token}` } : {}),
          ...(opts.body === undefined ? {} : { 'content-type': 'application/json' }),
          ...opts.headers,
        },
        body: opts.body === undefined ? undefined : JSON.stringify(opts.body),
      });
    } catch {
      throw new ApiError(NETWORK_MESSAGE, 0);
    }
    let json: unknown;
    let readable = true;
    try {
      json = await res.json();
    } catch {
      readable = false;
    }
    if (!res.ok) {
      if (res.status === 401 && signedIn) throw new ApiError(SESSION_ENDED_MESSAGE, 401);
      const error = json && typeof json === 'object' && 'error' in json && typeof json.error === 'string' ? json.error : undefined;
      throw new ApiError(error ?? `${what} failed (HTTP ${res.status}). Try again in a moment.`, res.status, error);
    }
    if (!readable) throw new UnexpectedAnswerError(`The server sent an unreadable answer to ${what}`, res.status);
    return { status: res.status, json, what };
  };
}
