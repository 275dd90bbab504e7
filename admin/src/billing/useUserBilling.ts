import { useCallback, useEffect, useState } from 'react';
import { useDataProvider } from 'react-admin';
import type { AdminBillingResponse } from '../../../events/payments';
import type { ConsoleDataProvider } from '../dataProvider';
import { errorText } from '../users/labels';

export type BillingState = { status: 'loading' } | { status: 'error'; message: string } | { status: 'ready'; billing: AdminBillingResponse };

/** A client's billing (GET /admin/users/{id}/billing); `reload` reads it again (after a refund). Off for talent accounts. */
export function useUserBilling(userId: string, enabled: boolean): BillingState & { reload: () => void } {
  const dataProvider = useDataProvider<ConsoleDataProvider>();
  const [attempt, setAttempt] = useState(0);
  const [state, setState] = useState<BillingState>({ status: 'loading' });
  useEffect(() => {
    if (!enabled) return;
    let cancelled = false;
    dataProvider.getUserBilling(userId).then(
      (result) => {
        if (cancelled) return;
        // After a 401 or 403, react-admin's proxy resolves with `{ data: {} }`.
        if (!Array.isArray(result?.data?.payments)) setState({ status: 'error', message: 'You do not have access to billing.' });
        else setState({ status: 'ready', billing: result.data });
      },
      (e: unknown) => !cancelled && setState({ status: 'error', message: errorText(e, 'Billing could not be loaded.') }),
    );
    return () => {
      cancelled = true;
    };
  }, [dataProvider, userId, enabled, attempt]);
  const reload = useCallback(() => setAttempt((n) => n + 1), []);
  return { ...state, reload };
}
