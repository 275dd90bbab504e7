import type { TalentListResponse } from '../../../../events/talent';
import type { TalentStore } from '../../store';

/** Every active talent, most generated first (ties by name); the site filters and sorts in the browser. */
export async function listTalent(store: TalentStore): Promise<TalentListResponse> {
  const talent = await store.listPublic();
  talent.sort((a, b) => b.generationCount - a.generationCount || a.name.localeCompare(b.name));
  return { talent };
}
