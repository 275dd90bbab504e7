import type { PayoutHistory } from '../../../../events/payouts';
import { ValidationError } from '../../../shared/errors';
import type { PayoutStore } from '../../store';

/**
 * `GET /admin/talent/{id}/payout-history`: account events, bank changes and payouts, newest
 * first, and how the payout account's name compared with the talent's verified ID.
 */
export async function payoutHistory(store: Pick<PayoutStore, 'history' | 'getConnect'>, talentId: string | undefined): Promise<PayoutHistory> {
  if (!talentId || !/^[a-z0-9][a-z0-9-]{0,99}$/i.test(talentId)) throw new ValidationError('The talent id is missing or malformed.', { id: 'The talent id is missing or malformed.' });
  const [entries, connect] = await Promise.all([store.history(talentId), store.getConnect(talentId)]);
  return { entries, ...(connect?.nameCheck ? { nameCheck: connect.nameCheck } : {}) };
}
