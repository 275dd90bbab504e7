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

/** Reads `{ error: string }` from an error response. */
async function serverError(res: Response): Promise<string | undefined> {
  try {
    const body: unknown = await res.json();
    if (body && typeof body === 'object' && 'error' in body && typeof body.error === 'string') {
      return body.error;
    }
  } catch {
    // not JSON: fall through
  }
  return undefined;
}

/** POSTs JSON and returns the parsed JSON body; throws ApiError on any failure. */
export async function postJson<T>(apiUrl: string, path: string, body: unknown, init?: RequestInit): Promise<T> {
  let res: Response;
  try {
    res = await fetch(`${apiUrl}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json' },
      body: JSON.stringify(body),
      ...init,
    });
  } catch (err) {
    throw new ApiError(err instanceof Error ? err.message : 'Network error', 0);
  }
  if (!res.ok) {
    const error = await serverError(res);
    throw new ApiError(error ?? (res.statusText || `HTTP ${res.status}`), res.status, error);
  }
  try {
    return (await res.json()) as T;
  } catch {
    throw new ApiError('The server sent an unreadable response', res.status);
  }
}
