import { useDataProvider } from 'react-admin';
import { FORBIDDEN_MESSAGE } from '../authProvider';
import { useConsoleQuery, type ConsoleQuery } from '../common/useConsoleQuery';
import type { AdminStats, ConsoleDataProvider } from '../dataProvider';

/**
 * GET /admin/stats through react-admin's data provider, so a 401 signs the user out and a 403
 * shows a notification (authProvider.checkError); on 403 the user stays, so say why the numbers
 * are missing.
 */
export function useStats(): ConsoleQuery<AdminStats> {
  const dataProvider = useDataProvider<ConsoleDataProvider>();
  return useConsoleQuery({
    queryKey: ['stats'],
    read: async () => ({ data: await dataProvider.getStats() }),
    isAnswer: (data) => typeof data === 'object' && data !== null && 'founding' in data,
    forbidden: FORBIDDEN_MESSAGE,
    failed: 'Unknown error',
  });
}
