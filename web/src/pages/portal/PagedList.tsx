import { keepPreviousData, useInfiniteQuery } from '@tanstack/react-query';
import { useEffect, useMemo, useRef, useState, type RefObject } from 'react';
import { errorText } from '../../lib/errorText';

/** One page of a newest-first list and the cursor of the next (none on the last page). */
export interface ListPage<T> {
  items: T[];
  nextCursor?: string;
}

export interface PagedList<T, E extends HTMLElement> {
  items: T[];
  /** Another page follows. */
  more: boolean;
  state: 'loading' | 'idle' | 'more';
  error?: string;
  /** Words for a polite live region after "Load more" ("3 more entries loaded."). */
  announce: string;
  /** The first item "Load more" brought: it takes the focus through `firstNew`. */
  focusId?: string;
  firstNew: RefObject<E | null>;
  loadMore(): Promise<void>;
  /** Reads the list again (a Try again button). */
  retry(): void;
}

/**
 * A portal's paged list with "Load more" (the credit history, the generation history), through
 * TanStack Query's infinite query: the first page on mount and again whenever `reloadKey` changes
 * (the balance: a grant or a spend adds lines; what is on screen stays until the new list is in),
 * further pages appended, the first new item focused and the count announced.
 */
export function usePagedList<T, E extends HTMLElement>(options: {
  /** The list's name in the query cache. */
  name: string;
  load: (cursor?: string) => Promise<ListPage<T>>;
  idOf: (item: T) => string;
  reloadKey: unknown;
  /** Singular and plural, for the announcement. */
  noun: [string, string];
  failedMessage: string;
}): PagedList<T, E> {
  const { name, load, idOf, reloadKey, noun, failedMessage } = options;
  const query = useInfiniteQuery({
    queryKey: [name, reloadKey],
    queryFn: ({ pageParam }) => load(pageParam),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last) => last.nextCursor,
    placeholderData: keepPreviousData,
  });
  const items = useMemo(() => query.data?.pages.flatMap((page) => page.items) ?? [], [query.data]);
  const [announce, setAnnounce] = useState('');
  const [focusId, setFocusId] = useState<string>();
  const firstNew = useRef<E>(null);

  useEffect(() => {
    if (focusId) firstNew.current?.focus();
  }, [focusId]);

  return {
    items,
    more: query.hasNextPage,
    state: query.isPending ? 'loading' : query.isFetchingNextPage ? 'more' : 'idle',
    error: query.isError ? errorText(query.error, failedMessage) : undefined,
    announce,
    focusId,
    firstNew,
    retry: () => void query.refetch(),
    async loadMore() {
      if (!query.hasNextPage) return;
      const result = await query.fetchNextPage();
      const page = result.data?.pages.at(-1);
      if (result.isError || !page) return;
      setFocusId(page.items[0] === undefined ? undefined : idOf(page.items[0]));
      setAnnounce(`${page.items.length} more ${page.items.length === 1 ? noun[0] : noun[1]} loaded.`);
    },
  };
}

/** Under a paged list: its failure, the announcement, "Load more", and Try again when nothing could be read. */
export function PagedListFooter<T, E extends HTMLElement>({ list }: { list: PagedList<T, E> }) {
  const { items, state, error, announce, more } = list;
  return (
    <>
      <p className="acct-error" role="alert">
        {error}
      </p>
      <p className="sr-only" role="status">
        {announce}
      </p>
      {more && state !== 'loading' && (
        <button type="button" className="button button--secondary acct-more" disabled={state === 'more'} onClick={() => void list.loadMore()}>
          {state === 'more' ? 'Loading…' : 'Load more'}
        </button>
      )}
      {error && items.length === 0 && (
        <button type="button" className="button button--secondary acct-more" onClick={list.retry}>
          Try again
        </button>
      )}
    </>
  );
}
