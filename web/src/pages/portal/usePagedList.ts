import { useEffect, useRef, useState, type RefObject } from 'react';

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
  /** Reads the first page again (a Try again button). */
  retry(): void;
}

const messageOf = (err: unknown, fallback: string) => (err instanceof Error ? err.message : fallback);

/**
 * A portal's paged list with "Load more" (the credit history, the generation history): the first
 * page on mount and again whenever `reloadKey` changes (the balance: a grant or a spend adds
 * lines), further pages appended, the first new item focused and the count announced.
 */
export function usePagedList<T, E extends HTMLElement>(options: {
  /** Memoized (useCallback): a new function reads the first page again. */
  load: (cursor?: string) => Promise<ListPage<T>>;
  idOf: (item: T) => string;
  reloadKey: unknown;
  /** Singular and plural, for the announcement. */
  noun: [string, string];
  failedMessage: string;
}): PagedList<T, E> {
  const { load, idOf, reloadKey, noun, failedMessage } = options;
  const [items, setItems] = useState<T[]>([]);
  const [cursor, setCursor] = useState<string>();
  const [state, setState] = useState<'loading' | 'idle' | 'more'>('loading');
  const [error, setError] = useState<string>();
  const [announce, setAnnounce] = useState('');
  const [focusId, setFocusId] = useState<string>();
  const [attempt, setAttempt] = useState(0);
  const firstNew = useRef<E>(null);

  useEffect(() => {
    let current = true;
    load().then(
      (page) => {
        if (!current) return;
        setItems(page.items);
        setCursor(page.nextCursor);
        setError(undefined);
        setState('idle');
      },
      (err: unknown) => {
        if (!current) return;
        setError(messageOf(err, failedMessage));
        setState('idle');
      },
    );
    return () => {
      current = false;
    };
  }, [load, reloadKey, attempt, failedMessage]);

  useEffect(() => {
    if (focusId) firstNew.current?.focus();
  }, [focusId]);

  return {
    items,
    more: Boolean(cursor),
    state,
    error,
    announce,
    focusId,
    firstNew,
    retry: () => setAttempt((n) => n + 1),
    async loadMore() {
      if (!cursor) return;
      setState('more');
      setError(undefined);
      try {
        const page = await load(cursor);
        setItems((old) => [...old, ...page.items]);
        setCursor(page.nextCursor);
        setFocusId(page.items[0] === undefined ? undefined : idOf(page.items[0]));
        setAnnounce(`${page.items.length} more ${page.items.length === 1 ? noun[0] : noun[1]} loaded.`);
      } catch (err) {
        setError(messageOf(err, failedMessage));
      } finally {
        setState('idle');
      }
    },
  };
}
