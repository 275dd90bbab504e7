import { useCallback, useEffect, useState } from 'react';
import { useDataProvider } from 'react-admin';
import { FORBIDDEN_MESSAGE } from '../authProvider';
import { parseAdminStats, type AdminStats, type ConsoleDataProvider } from '../dataProvider';

export type StatsState =
  | { status: 'loading' }
  | { status: 'error'; message: string }
  | { status: 'ready'; stats: AdminStats };

/**
 * Loads GET /admin/stats through react-admin's data provider, so a 401 signs the user out
 * and a 403 shows a notification (authProvider.checkError). `reload` fetches again.
 */
export function useStats(): StatsState & { reload: () => void } {
  const dataProvider = useDataProvider<ConsoleDataProvider>();
  const [attempt, setAttempt] = useState(0);
  const [state, setState] = useState<StatsState>({ status: 'loading' });

  useEffect(() => {
    let cancelled = false;
    dataProvider
      .getStats()
      .then((result) => {
        // After authProvider.checkError rejects (401, 403), react-admin's proxy resolves the
        // call with `{ data: {} }` instead of rejecting. On 401 the user is being signed out;
        // on 403 they stay, so say why the numbers are missing.
        if (result && typeof result === 'object' && 'data' in result && !('founding' in result)) {
          throw new Error(FORBIDDEN_MESSAGE);
        }
        return parseAdminStats(result);
      })
      .then(
        (stats) => !cancelled && setState({ status: 'ready', stats }),
        (error: unknown) =>
          !cancelled &&
          setState({
            status: 'error',
            message: error instanceof Error && error.message ? error.message : 'Unknown error',
          }),
      );
    return () => {
      cancelled = true;
    };
  }, [dataProvider, attempt]);

  // The state starts as loading; a reload says so again before fetching.
  const reload = useCallback(() => {
    setState({ status: 'loading' });
    setAttempt((n) => n + 1);
  }, []);
  return { ...state, reload };
}
