import { FOUNDING_SPOTS } from '../../../../events/founding';
import type { FoundingStore } from '../../store';

/** `GET /founding-spots`: `{ total: 30, taken, left }`, from the counter the allocation updates (`taken < 30`). */
export async function foundingSpots(store: Pick<FoundingStore, 'foundingSpotsTaken'>): Promise<{ total: number; taken: number; left: number }> {
  const taken = Math.min(await store.foundingSpotsTaken(), FOUNDING_SPOTS);
  return { total: FOUNDING_SPOTS, taken, left: FOUNDING_SPOTS - taken };
}
