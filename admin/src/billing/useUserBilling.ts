import { useDataProvider } from 'react-admin';
import type { AdminBillingResponse } from '../../../events/payments';
import { useConsoleQuery, type ConsoleQuery } from '../common/useConsoleQuery';
import type { ConsoleDataProvider } from '../dataProvider';

/** A client's billing (GET /admin/users/{id}/billing); `refetch` reads it again (after a refund). Off for talent accounts. */
export function useUserBilling(userId: string, enabled: boolean): ConsoleQuery<AdminBillingResponse> {
  const dataProvider = useDataProvider<ConsoleDataProvider>();
  return useConsoleQuery({
    queryKey: ['user-billing', userId],
    read: () => dataProvider.getUserBilling(userId),
    isAnswer: (data) => Array.isArray(data.payments),
    forbidden: 'You do not have access to billing.',
    failed: 'Billing could not be loaded.',
    enabled,
  });
}
