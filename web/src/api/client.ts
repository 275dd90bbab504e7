// The site's one way of calling its API: every call of the site (api/*.ts, account/api.ts,
// generation/api.ts, auth/me-api.ts, the portals' api.ts) goes through apiClient(), which alone
// joins the base URL from /config.json to a path, sets the headers and the signed-in person's id
// token, reads JSON, throws ApiError, and checks answers against the shared contract (events/*.ts).

/**
 * An HTTP API failure: a non-2xx response (status > 0), a network failure (status 0), or a 2xx
 * whose body was not JSON. `serverError` is the `{ error }` text the server sent, if it sent one.
 */
export class ApiError extends Error {
  override name = 'ApiError';
  constructor(
    message: string,
    readonly status: number,
    readonly serverError?: string,
  ) {
    super(message);
  }
}

/** An answer that does not match the contract (a bug or a proxy's page, never the person's fault). */
export class UnexpectedAnswerError extends ApiError {
  override name = 'UnexpectedAnswerError';
}

/** The session is gone (HTTP 401): the person must sign in again. */
export const SESSION_ENDED_MESSAGE = 'Your session has ended. Sign in again to continue.';
const NETWORK_MESSAGE = 'We could not reach the server. Check your connection and try again.';

const unexpected = (what: string, problem: string, status: number) =>
  new UnexpectedAnswerError(`The server sent an unexpected answer to ${what} (${problem})`, status);

interface Schema<T> {
  safeParse(value: unknown): { success: true; data: T } | { success: false; error: { issues: { path: PropertyKey[]; message: string }[] } };
}

/** Checks an answer against its schema; names the first problem when it does not match. */
function check<T>(schema: Schema<T>, body: unknown, what: string, status: number): T {
  const parsed = schema.safeParse(body);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  const where = issue?.path.length ? issue.path.map(String).join('.') : 'the answer';
  throw unexpected(what, `${where}: ${issue?.message ?? 'invalid'}`, status);
}

type Method = 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';

/** A 2xx answer's parsed body, with its status and the call in words (`GET /me/ledger`) for messages. */
interface Answer {
  status: number;
  json: unknown;
  what: string;
}

/** A non-2xx answer, for the wording of its error. */
export interface Refusal {
  status: number;
  statusText: string;
  what: string;
  /** The parsed body, when it was JSON. */
  json: unknown;
  /** The `{ error }` text the server sent, if it sent one. */
  serverError?: string;
  signedIn: boolean;
}

/** What a failed call throws. */
export interface Wording {
  /** fetch itself failed (no answer: status 0). */
  network(err: unknown): string;
  refused(refusal: Refusal): ApiError;
  /** A 2xx answer whose body is not JSON. */
  unreadable(answer: { status: number; what: string }): ApiError;
}

/** The pages of signed-in people: sentences that say what to do, and the server's own reason when it gave one. */
export const signedInWording: Wording = {
  network: () => NETWORK_MESSAGE,
  refused: (r) =>
    r.status === 401 && r.signedIn
      ? new ApiError(SESSION_ENDED_MESSAGE, 401)
      : new ApiError(r.serverError ?? `${r.what} failed (HTTP ${r.status}). Try again in a moment.`, r.status, r.serverError),
  unreadable: ({ status, what }) => new UnexpectedAnswerError(`The server sent an unreadable answer to ${what}`, status),
};

/** The public forms: the browser's reason for a network failure, the server's or the status line for a refusal. */
export const plainWording: Wording = {
  network: (err) => (err instanceof Error ? err.message : 'Network error'),
  refused: (r) => new ApiError(r.serverError ?? (r.statusText || `HTTP ${r.status}`), r.status, r.serverError),
  unreadable: ({ status }) => new ApiError('The server sent an unreadable response', status),
};

export interface ApiOptions {
  apiUrl: string;
  /** A current id token, or undefined when signed out (the auth context's getIdToken). Public calls need none. */
  getIdToken?: () => Promise<string | undefined>;
  /** How this client's failures read; the signed-in pages' wording by default. */
  wording?: Partial<Wording>;
  /** For tests; defaults to the global fetch. */
  fetch?: typeof fetch;
}

interface CallOptions {
  /** Sent as JSON; a Blob (a file) is sent as it is, with its own type. */
  body?: unknown;
  headers?: Record<string, string>;
  /**
   * Carries the id token (the default when the client has getIdToken): without one the call is
   * not sent and ends in SESSION_ENDED_MESSAGE, as does a 401 in the signed-in wording.
   */
  signedIn?: boolean;
  signal?: AbortSignal;
  /** The request may outlive the page (a fire-and-forget call as the page closes). */
  keepalive?: boolean;
  /** This call's wording, over the client's. */
  wording?: Partial<Wording>;
}

interface ReadOptions<T> extends CallOptions {
  /** A rule the schema cannot state (a cursor that repeats): the field and what is wrong with it, or undefined. */
  expect?: (data: T) => string | undefined;
}

export interface ApiClient {
  /** Sends a JSON call; its 2xx answer, or the wording's ApiError. */
  call(method: Method, path: string, options?: CallOptions): Promise<Answer>;
  /**
   * A call whose answer is checked against its schema (UnexpectedAnswerError names the first
   * field it gets wrong). The schema loads beside the call, so a page that imports it with
   * import() does not load the schema library to start.
   */
  read<T>(method: Method, path: string, schema: () => Promise<Schema<T>>, options?: ReadOptions<T>): Promise<T>;
  /** A signed-in file download with the name the server gives it (`Content-Disposition`), else `filename`. */
  download(path: string, options: { accept: string; filename: string; failed: string }): Promise<{ filename: string; blob: Blob }>;
}

/** Reads `{ error: string }` from a parsed body. */
function serverErrorOf(json: unknown): string | undefined {
  return json && typeof json === 'object' && 'error' in json && typeof json.error === 'string' ? json.error : undefined;
}

export function apiClient({ apiUrl, getIdToken, wording: clientWording, fetch: fetchImpl = (...args) => fetch(...args) }: ApiOptions): ApiClient {
  /** Sends the call and reads the answer's body as JSON, or (a 2xx download) as a blob. */
  async function exchange(method: Method, path: string, opts: CallOptions, read: 'json' | 'blob'): Promise<{ res: Response; what: string; body: unknown }> {
    const wording: Wording = { ...signedInWording, ...clientWording, ...opts.wording };
    const what = `${method} ${path.split('?')[0]}`;
    const signedIn = opts.signedIn ?? getIdToken !== undefined;
    const token = signedIn ? await getIdToken?.() : undefined;
    if (signedIn && !token) throw new ApiError(SESSION_ENDED_MESSAGE, 401);
    const file = opts.body instanceof Blob ? opts.body : undefined;
    let res: Response;
    try {
      res = await fetchImpl(`${apiUrl}${path}`, {
        method,
        headers: {
          accept: 'application/json',
          ...(token ? { authorization: `Bearer ${token}` } : {}),
          ...(opts.body === undefined ? {} : { 'content-type': file ? file.type || 'application/octet-stream' : 'application/json' }),
          ...opts.headers,
        },
        body: opts.body === undefined ? undefined : (file ?? JSON.stringify(opts.body)),
        ...(opts.signal ? { signal: opts.signal } : {}),
        ...(opts.keepalive ? { keepalive: true } : {}),
      });
    } catch (err) {
      // The caller cancelled it: not a failure to word.
      if ((err as Error | undefined)?.name === 'AbortError') throw err;
      throw new ApiError(wording.network(err), 0);
    }
    if (res.ok && read === 'blob') return { res, what, body: await res.blob() };
    let json: unknown;
    let readable = true;
    try {
      json = await res.json();
    } catch {
      readable = false;
    }
    if (!res.ok) throw wording.refused({ status: res.status, statusText: res.statusText, what, json, serverError: serverErrorOf(json), signedIn });
    if (!readable) throw wording.unreadable({ status: res.status, what });
    return { res, what, body: json };
  }

  const call: ApiClient['call'] = async (method, path, opts = {}) => {
    const { res, what, body } = await exchange(method, path, opts, 'json');
    return { status: res.status, json: body, what };
  };

  return {
    call,
    async read(method, path, schema, { expect, ...opts } = {}) {
      const [s, answer] = await Promise.all([schema(), call(method, path, opts)]);
      const data = check(s, answer.json, answer.what, answer.status);
      const problem = expect?.(data);
      if (problem) throw unexpected(answer.what, problem, answer.status);
      return data;
    },
    async download(path, { accept, filename, failed }) {
      const refused = (r: Refusal) =>
        r.status === 401 ? new ApiError(SESSION_ENDED_MESSAGE, 401) : new ApiError(r.serverError ?? `${failed} (HTTP ${r.status}). Try again.`, r.status);
      const { res, body } = await exchange('GET', path, { signedIn: true, headers: { accept }, wording: { refused } }, 'blob');
      // The name the API gives (CORS exposes Content-Disposition); the fallback if a proxy dropped it.
      const given = /filename="([^"]+)"/.exec(res.headers.get('content-disposition') ?? '')?.[1];
      return { filename: given ?? filename, blob: body as Blob };
    },
  };
}

/** A public form's POST (no token, the plain wording); resolves with the answer's JSON. */
export async function postJson<T>(apiUrl: string, path: string, body: unknown): Promise<T> {
  const answer = await apiClient({ apiUrl, wording: plainWording }).call('POST', path, { body });
  return answer.json as T;
}
