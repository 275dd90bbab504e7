/** An HTTP API failure: a non-2xx response (status > 0) or a network failure (status 0). */
export class ApiError extends Error {
  override name = 'ApiError';
  constructor(
    message: string,
    readonly status: number,
  ) {
    super(message);
  }
}

/** Reads `{ error: string }` from an error response, falling back to the status text. */
async function errorMessage(res: Response): Promise<string> {
  try {
    const body: unknown = await res.json();
    if (body && typeof body === 'object' && 'error' in body && typeof body.error === 'string') {
      return body.error;
    }
  } catch {
    // not JSON: fall through
  }
  return res.statusText || `HTTP ${res.status}`;
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
  if (!res.ok) throw new ApiError(await errorMessage(res), res.status);
  try {
    return (await res.json()) as T;
  } catch {
    throw new ApiError('The server sent an unreadable response', res.status);
  }
}
