import { Alert, Box, Button, CircularProgress } from '@mui/material';
import type { ReactNode } from 'react';
import type { ConsoleQuery } from './useConsoleQuery';

/** What a section shows while its data loads (a polite status for screen readers). */
export function Loading({ children }: { children: ReactNode }) {
  return (
    <Box role="status" sx={{ display: 'flex', gap: 1, alignItems: 'center' }}>
      <CircularProgress size={18} /> {children}
    </Box>
  );
}

/** A read that failed: why (an alert), and a button that reads again. */
export function LoadError({ message, onRetry }: { message: ReactNode; onRetry: () => void }) {
  return (
    <Alert
      severity="error"
      action={
        <Button color="inherit" size="small" onClick={onRetry}>
          Try again
        </Button>
      }
    >
      {message}
    </Alert>
  );
}

/**
 * A console query's three states: `loading` while it reads (and while Try again reads again after
 * a failure), the failure with Try again, else `children` with the data.
 */
export function Loaded<T>(props: {
  query: ConsoleQuery<T>;
  loading: ReactNode;
  /** Said before the failure's own words ("Could not load the revenue figures."). */
  failed?: string;
  children: (data: T) => ReactNode;
}) {
  const { query, loading, failed, children } = props;
  if (query.isPending || (query.isError && query.isFetching)) return <Loading>{loading}</Loading>;
  if (query.isError) return <LoadError message={failed ? `${failed} ${query.message}` : query.message} onRetry={() => void query.refetch()} />;
  return <>{children(query.data)}</>;
}
