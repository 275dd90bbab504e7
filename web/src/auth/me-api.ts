import type { MeResponse, Profile, UpdateMeRequest } from '../../../events/accounts';
import { ApiError } from '../api/http';

async function call<T>(apiUrl: string, idToken: string, method: 'GET' | 'PATCH', body?: unknown): Promise<T> {
  let res: Response;
  try {
    res = await fetch(`${apiUrl}/me`, {
      method,
      headers: {
        authorization: `Bearer ${idToken}`,
        accept: 'application/json',
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
  } catch (err) {
    throw new ApiError(err instanceof Error ? err.message : 'Network error', 0);
  }
  let json: unknown;
  try {
    json = await res.json();
  } catch {
    json = undefined;
  }
  if (!res.ok) {
    const error = json && typeof json === 'object' && 'error' in json && typeof json.error === 'string' ? json.error : undefined;
    throw new ApiError(error ?? `HTTP ${res.status}`, res.status, error);
  }
  if (json === undefined) throw new ApiError('The server sent an unreadable response', res.status);
  return json as T;
}

/** `GET /me`: the signed-in person's account. */
export function fetchMe(apiUrl: string, idToken: string): Promise<MeResponse> {
  return call<MeResponse>(apiUrl, idToken, 'GET');
}

/** `PATCH /me`: answers the updated profile. */
export function patchMe(apiUrl: string, idToken: string, changes: UpdateMeRequest): Promise<Profile> {
  return call<Profile>(apiUrl, idToken, 'PATCH', changes);
}
