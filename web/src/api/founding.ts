import { apiClient } from './client';

export interface FoundingSpots {
  total: number;
  taken: number;
  left: number;
}

/** `GET /founding-spots`: the count, or null for an answer that is not a whole one (a missing or odd number would mislead). */
export async function fetchFoundingSpots(apiUrl: string, signal: AbortSignal): Promise<FoundingSpots | null> {
  const body = (await apiClient({ apiUrl }).call('GET', '/founding-spots', { signal })).json as FoundingSpots | null;
  return body && [body.total, body.taken, body.left].every((n) => Number.isInteger(n) && n >= 0) ? body : null;
}
