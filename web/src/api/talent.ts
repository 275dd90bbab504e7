import type { PublicTalent, TalentListResponse, TalentResponse } from '../../../events/talent';
import { TALENT_NOT_FOUND_MESSAGE, isTalentId } from '../../../events/talent-values';
import { ApiError, apiClient, plainWording } from './client';

export type { PublicTalent };

/** The profile's id names no active talent (HTTP 404, or an id that cannot be one). */
export class TalentNotFoundError extends ApiError {
  override name = 'TalentNotFoundError';
  constructor() {
    super(TALENT_NOT_FOUND_MESSAGE, 404);
  }
}

/** A catalog read: a 404 is TalentNotFoundError, any other refusal names its status. */
async function getJson<T>(apiUrl: string, path: string, signal?: AbortSignal): Promise<T> {
  const catalog = apiClient({
    apiUrl,
    wording: {
      ...plainWording,
      refused: ({ status }) => (status === 404 ? new TalentNotFoundError() : new ApiError(`The talent catalog answered HTTP ${status}`, status)),
    },
  });
  return (await catalog.call('GET', path, { signal })).json as T;
}

/** Talent already loaded on this page visit, by id: a profile opened from the library shows at once. */
const seen = new Map<string, PublicTalent>();

export function knownTalent(id: string): PublicTalent | undefined {
  return seen.get(id);
}

/** `GET /talent`: every active talent (the library filters and sorts them here). */
export async function fetchTalentList(apiUrl: string, signal?: AbortSignal): Promise<PublicTalent[]> {
  const body = await getJson<TalentListResponse>(apiUrl, '/talent', signal);
  const talent = Array.isArray(body?.talent) ? body.talent : [];
  for (const t of talent) seen.set(t.id, t);
  return talent;
}

/** `GET /talent/{id}`; throws TalentNotFoundError for an unknown, hidden or malformed id. */
export async function fetchTalent(apiUrl: string, id: string, signal?: AbortSignal): Promise<PublicTalent> {
  if (!isTalentId(id)) throw new TalentNotFoundError();
  const body = await getJson<TalentResponse>(apiUrl, `/talent/${encodeURIComponent(id)}`, signal);
  seen.set(body.talent.id, body.talent);
  return body.talent;
}

// ---------------------------------------------------------------------------------------------
// Library filtering (pure, so it is the same wherever it runs)

export type TalentSort = 'most-generated' | 'name';
export const TALENT_SORTS: ReadonlyArray<{ value: TalentSort; label: string }> = [
  { value: 'most-generated', label: 'Most generated' },
  { value: 'name', label: 'Name (A-Z)' },
];

export interface TalentFilters {
  query: string;
  /** Selected tags; a talent matches when it has any of them (OR). */
  tags: readonly string[];
  sort: TalentSort;
}

/** Every tag in the library, most used first, then alphabetical. */
export function tagsOf(talent: readonly PublicTalent[]): string[] {
  const counts = new Map<string, number>();
  for (const t of talent) for (const tag of t.tags) counts.set(tag, (counts.get(tag) ?? 0) + 1);
  return [...counts.keys()].sort((a, b) => counts.get(b)! - counts.get(a)! || a.localeCompare(b));
}

/** Search (name, tagline and tags, case-insensitive) AND any selected tag, then sorted. */
export function filterTalent(talent: readonly PublicTalent[], { query, tags, sort }: TalentFilters): PublicTalent[] {
  const q = query.trim().toLowerCase();
  const matches = talent.filter((t) => {
    if (tags.length && !t.tags.some((tag) => tags.includes(tag))) return false;
    if (!q) return true;
    return [t.name, t.tagline, ...t.tags].some((text) => text.toLowerCase().includes(q));
  });
  return matches.sort((a, b) =>
    sort === 'name' ? a.name.localeCompare(b.name) : b.generationCount - a.generationCount || a.name.localeCompare(b.name),
  );
}

export function formatCount(n: number): string {
  return n.toLocaleString('en-US');
}

/** "Maya" from "Maya Chen", for sentences about the person. */
export function firstNameOf(name: string): string {
  return name.trim().split(/\s+/)[0] ?? name;
}
