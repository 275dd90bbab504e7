import type { UseQueryResult } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { errorText } from '../lib/errorText';

/** What a card shows while its data loads: a polite status for screen readers. */
export function Loading({ children = 'Loading…' }: { children?: ReactNode }) {
  return (
    <p role="status" className="acct-muted">
      {children}
    </p>
  );
}

/** A read that failed: what went wrong (an alert), and a real button that reads again. */
export function LoadError({ message, onRetry }: { message: string; onRetry: () => void }) {
  return (
    <>
      <p className="acct-error" role="alert">
        {message}
      </p>
      <div className="acct-actions">
        <button type="button" className="button button--ghost" onClick={onRetry}>
          Try again
        </button>
      </div>
    </>
  );
}

/**
 * A query's three states: `loading` while it reads (and while Try again reads again), the failure
 * (its message, else `failed`) with Try again, else `children` with the data.
 */
export function Loaded<T>(props: { query: UseQueryResult<T>; loading?: ReactNode; failed: string; children: (data: T) => ReactNode }) {
  const { query, loading, failed, children } = props;
  if (query.isPending || (query.isError && query.isFetching)) return <Loading>{loading}</Loading>;
  if (query.isError) return <LoadError message={errorText(query.error, failed)} onRetry={() => void query.refetch()} />;
  return <>{children(query.data)}</>;
}
