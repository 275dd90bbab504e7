// The site's calls to the generation and license routes (docs/product.md#create, #licenses):
// start and read a generation, the client's history, a license's download, the public license
// and the talent's usage. Every answer is checked against the shared contract
// (events/generations.ts) before a page sees it; the schemas load with import() on the first call,
// so the validation library is not part of what a page loads to start.
import type { Generation, GenerationPage, GenerationStarted, LicenseDownload, LikenessUsage, PublicLicense, StartGenerationRequest } from '../../../events/generations';
import { LICENSE_ID_PATTERN } from '../../../events/generation-values';
import { ApiError } from '../api/http';

/** An answer that does not match the contract (a bug or a proxy's page, never the person's fault). */
export class UnexpectedAnswerError extends ApiError {
  override name = 'UnexpectedAnswerError';
}

/** The license does not exist (HTTP 404, or an id that cannot be one). */
export class LicenseNotFoundError extends ApiError {
  override name = 'LicenseNotFoundError';
  constructor() {
    super(LICENSE_NOT_FOUND_MESSAGE, 404);
  }
}

export const LICENSE_NOT_FOUND_MESSAGE = 'License not found';
/** The session is gone (HTTP 401): the person must sign in again. */
export const SESSION_ENDED_MESSAGE = 'Your session has ended. Sign in again to continue.';
const NETWORK_MESSAGE = 'We could not reach the server. Check your connection and try again.';

export interface GenerationApiOptions {
  apiUrl: string;
  /** A current id token, or undefined when signed out (the auth context's getIdToken). Public calls need none. */
  getIdToken?: () => Promise<string | undefined>;
  /** For tests; defaults to the global fetch. */
  fetch?: typeof fetch;
}

export interface GenerationApi {
  /** `POST /generations` (client): answered at once; the workflow runs after. The key makes a retry the same generation. */
  start(request: StartGenerationRequest, idempotencyKey: string): Promise<GenerationStarted>;
  /** `GET /generations/{id}` (owner). */
  get(id: string): Promise<Generation>;
  /** `GET /me/generations` (client): one page, newest first; pass the previous page's nextCursor for the next. */
  history(cursor?: string): Promise<GenerationPage>;
  /** `GET /licenses/{id}/download` (owner): a short-lived URL to the original file. */
  download(licenseId: string): Promise<LicenseDownload>;
  /** `GET /licenses/{id}` (public): the license without the prompt; LicenseNotFoundError when unknown. */
  license(licenseId: string): Promise<PublicLicense>;
  /** `GET /me/likeness-usage` (accepted talent): images made with the likeness, by month. */
  likenessUsage(): Promise<LikenessUsage>;
}

interface Schema<T> {
  safeParse(value: unknown): { success: true; data: T } | { success: false; error: { issues: { path: PropertyKey[]; message: string }[] } };
}

/** Checks an answer against its schema; names the first problem when it does not match. */
function check<T>(schema: Schema<T>, body: unknown, what: string, status: number): T {
  const parsed = schema.safeParse(body);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  const where = issue?.path.length ? issue.path.map(String).join('.') : 'the answer';
  throw new UnexpectedAnswerError(`The server sent an unexpected answer to ${what} (${where}: ${issue?.message ?? 'invalid'})`, status);
}

const schemas = () => import('../../../events/generations');

/** True for a string shaped like a license id (so a typo never reaches the API). */
const isLicenseId = (id: string) => LICENSE_ID_PATTERN.test(id);

export function generationApi({ apiUrl, getIdToken, fetch: fetchImpl = (...args) => fetch(...args) }: GenerationApiOptions): GenerationApi {
  async function call(
    method: 'GET' | 'POST',
    path: string,
    opts: { body?: unknown; headers?: Record<string, string>; signedIn?: boolean } = {},
  ): Promise<{ status: number; json: unknown; what: string }> {
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
  }

  const id = (value: string) => encodeURIComponent(value);

  return {
    async start(request, idempotencyKey) {
      const [s, answer] = await Promise.all([schemas(), call('POST', '/generations', { body: request, headers: { 'idempotency-key': idempotencyKey } })]);
      return check(s.GenerationStarted, answer.json, answer.what, answer.status);
    },
    async get(generationId) {
      const [s, answer] = await Promise.all([schemas(), call('GET', `/generations/${id(generationId)}`)]);
      const generation = check(s.Generation, answer.json, answer.what, answer.status);
      if (generation.id !== generationId) {
        throw new UnexpectedAnswerError(`The server sent an unexpected answer to ${answer.what} (id: another generation)`, answer.status);
      }
      return generation;
    },
    async history(cursor) {
      const query = cursor ? `?${new URLSearchParams({ cursor })}` : '';
      const [s, answer] = await Promise.all([schemas(), call('GET', `/me/generations${query}`)]);
      const page = check(s.GenerationPage, answer.json, answer.what, answer.status);
      if (cursor && page.nextCursor === cursor) {
        throw new UnexpectedAnswerError(`The server sent an unexpected answer to ${answer.what} (nextCursor: the same page again)`, answer.status);
      }
      return page;
    },
    async download(licenseId) {
      if (!isLicenseId(licenseId)) throw new LicenseNotFoundError();
      const [s, answer] = await Promise.all([schemas(), call('GET', `/licenses/${id(licenseId)}/download`)]);
      const download = check(s.LicenseDownload, answer.json, answer.what, answer.status);
      if (!/^https?:\/\//.test(download.url)) {
        throw new UnexpectedAnswerError(`The server sent an unexpected answer to ${answer.what} (url: not a web address)`, answer.status);
      }
      return download;
    },
    async license(licenseId) {
      if (!isLicenseId(licenseId)) throw new LicenseNotFoundError();
      const [s, answer] = await Promise.all([
        schemas(),
        call('GET', `/licenses/${id(licenseId)}`, { signedIn: false }).catch((err: unknown) => {
          throw err instanceof ApiError && err.status === 404 ? new LicenseNotFoundError() : err;
        }),
      ]);
      const license = check(s.PublicLicense, answer.json, answer.what, answer.status);
      if (license.id !== licenseId) {
        throw new UnexpectedAnswerError(`The server sent an unexpected answer to ${answer.what} (id: another license)`, answer.status);
      }
      return license;
    },
    async likenessUsage() {
      const [s, answer] = await Promise.all([schemas(), call('GET', '/me/likeness-usage')]);
      return check(s.LikenessUsage, answer.json, answer.what, answer.status);
    },
  };
}
