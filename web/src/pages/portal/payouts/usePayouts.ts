import { useCallback, useEffect, useState } from 'react';
import type { MyPayoutsResponse } from '../../../../../events/payouts';
import type { PayoutsApi } from '../../../payouts/api';

export interface PayoutsState {
  data?: MyPayoutsResponse;
  error: string;
  /** Reads the account and payouts again (after coming back from Stripe, or "Try again"). */
  reload: () => void;
}

/** The talent's payout account and statement payouts (GET /me/payouts), read on mount and on `reload`. */
export function usePayouts(api: PayoutsApi): PayoutsState {
  const [data, setData] = useState<MyPayoutsResponse>();
  const [error, setError] = useState('');
  const [attempt, setAttempt] = useState(0);
  useEffect(() => {
    let current = true;
    api.payouts().then(
      (answer) => {
        if (!current) return;
        setData(answer);
        setError('');
      },
      (err: unknown) => current && setError(err instanceof Error && err.message ? err.message : 'Your payouts could not be loaded.'),
    );
    return () => {
      current = false;
    };
  }, [api, attempt]);
  const reload = useCallback(() => setAttempt((n) => n + 1), []);
  return { data, error, reload };
}
