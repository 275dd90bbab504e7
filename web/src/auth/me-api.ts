import type { MeResponse, Profile, UpdateMeRequest } from '../../../events/accounts';
import { ApiError, apiClient, plainWording } from '../api/client';

/** `/me` with this token; a failure reads "HTTP 503" or the server's reason, which the account page shows after its own words. */
async function call<T>(apiUrl: string, idToken: string, method: 'GET' | 'PATCH', body?: unknown): Promise<T> {
  const me = apiClient({
    apiUrl,
    getIdToken: async () => idToken,
    wording: { ...plainWording, refused: (r) => new ApiError(r.serverError ?? `HTTP ${r.status}`, r.status, r.serverError) },
  });
  return (await me.call(method, '/me', { body })).json as T;
}

/** `GET /me`: the signed-in person's account. */
export function fetchMe(apiUrl: string, idToken: string): Promise<MeResponse> {
  return call<MeResponse>(apiUrl, idToken, 'GET');
}

/** `PATCH /me`: answers the updated profile. */
export function patchMe(apiUrl: string, idToken: string, changes: UpdateMeRequest): Promise<Profile> {
  return call<Profile>(apiUrl, idToken, 'PATCH', changes);
}
