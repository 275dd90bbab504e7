import { ValidationError } from '../../../shared/errors';
import type { HistoryEntry, PayoutStore } from '../../store';

/** `GET /admin/talent/{id}/payout-history`: account events, bank changes and payouts, newest first. */
export async function payoutHistory(store: Pick<PayoutStore, 'history'>, talentId: string | undefined): Promise<{ entries: HistoryEntry[] }> {
  if (!talentId || !/^[a-z0-9][a-z0-9-]{0,99}$/i.test(talentId)) throw new ValidationError('The talent id is missing or malformed.', { id: 'The talent id is missing or malformed.' });
  return { entries: await store.history(talentId) };
}
