import { useQuery } from '@tanstack/react-query';
import type { MyPayoutsResponse } from '../../../../../events/payouts';
import { errorText } from '../../../lib/errorText';
import type { PayoutsApi } from '../../../payouts/api';

export interface PayoutsState {
  data?: MyPayoutsResponse;
  error: string;
  /** Reads the account and payouts again (after coming back from Stripe, or "Try again"). */
  reload: () => void;
}

/** The talent's payout account and statement payouts (GET /me/payouts), read on mount and on `reload`. */
export function usePayouts(api: PayoutsApi): PayoutsState {
  const query = useQuery({ queryKey: ['payouts'], queryFn: () => api.payouts() });
  return {
    data: query.data,
    error: query.isError ? errorText(query.error, 'Your payouts could not be loaded.') : '',
    reload: () => void query.refetch(),
  };
}
