import { QueryClient, QueryClientProvider, useQuery, useQueryClient, type UseQueryResult } from '@tanstack/react-query';
import { useCallback, useEffect, useRef, useState, type ReactNode } from 'react';

/**
 * The account pages' TanStack Query client (decision 052). It sits inside the auth provider, which
 * loads only on account routes after the page is up, so marketing pages never download it. A
 * failed read is not retried on its own (the page says why, with Try again: LoadError), nor read
 * again when the window regains focus. When the signed-in account changes or signs out (`owner`),
 * every cached answer is dropped and what is on screen is read again, so no account sees another's data.
 */
export function QueryProvider({ owner, children }: { owner: string; children: ReactNode }) {
  const [client] = useState(() => new QueryClient({ defaultOptions: { queries: { retry: false, refetchOnWindowFocus: false } } }));
  const seen = useRef(owner);
  useEffect(() => {
    if (seen.current === owner) return;
    const previous = seen.current;
    seen.current = owner;
    // Signing in keeps what was read signed out (the public talent list); another account or signing out does not.
    if (previous) void client.resetQueries();
  }, [client, owner]);
  return <QueryClientProvider client={client}>{children}</QueryClientProvider>;
}

/**
 * A read of the signed-in account's data through the query cache (`name` is its key), and `set` for an answer already
 * in hand (an action that replies with the new state), so the card shows it without reading again.
 */
export function useAccountQuery<T>(name: string, read: () => Promise<T>): [UseQueryResult<T>, (data: T) => void] {
  const client = useQueryClient();
  const query = useQuery({ queryKey: [name], queryFn: read });
  const set = useCallback((data: T) => void client.setQueryData([name], data), [client, name]);
  return [query, set];
}
