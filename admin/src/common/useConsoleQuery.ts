import { errorText } from './errorText';
import { useQuery, type QueryKey, type UseQueryResult } from '@tanstack/react-query';

/** A console read: TanStack Query's state, with the failure as the words to show. */
export type ConsoleQuery<T> = UseQueryResult<T> & { message: string };

/**
 * The answer of a console read, or a failure saying `forbidden` when react-admin's proxy resolved
 * with `{ data: {} }` after a 401 or 403 it has handled (`isAnswer` tells a real answer).
 */
export async function consoleAnswer<T>(read: () => Promise<{ data: T } | undefined>, isAnswer: (data: T) => boolean, forbidden: string): Promise<T> {
  const result = await read();
  if (!result || result.data === undefined || !isAnswer(result.data)) throw new Error(forbidden);
  return result.data;
}

/**
 * Reads through react-admin's data provider into TanStack Query's cache (react-admin's own
 * QueryClient), so every console section loads, fails and retries the same way.
 *
 * After a 401 or 403 it has handled (signing out, or a notification), react-admin's proxy resolves
 * the call with `{ data: {} }` instead of rejecting: `isAnswer` tells the real answer from that,
 * and anything else fails with `forbidden`. A failed read is not retried on its own: the section
 * shows why, with a Try again button (LoadError).
 */
export function useConsoleQuery<T>(options: {
  queryKey: QueryKey;
  read: () => Promise<{ data: T } | undefined>;
  isAnswer: (data: T) => boolean;
  forbidden: string;
  /** Shown when the failure has no words of its own. */
  failed: string;
  enabled?: boolean;
}): ConsoleQuery<T> {
  const { queryKey, read, isAnswer, forbidden, failed, enabled } = options;
  const query = useQuery({
    queryKey: ['console', ...queryKey],
    queryFn: () => consoleAnswer(read, isAnswer, forbidden),
    enabled,
    retry: false,
    refetchOnWindowFocus: false,
  });
  return { ...query, message: query.error ? errorText(query.error, failed) : '' };
}
