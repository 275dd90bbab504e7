import ReplayIcon from '@mui/icons-material/Replay';
import { Alert, AlertTitle, Button, CircularProgress } from '@mui/material';
import { useState } from 'react';
import { useDataProvider, useNotify } from 'react-admin';
import type { ApplicationDetail } from '../../../events/founding';
import { FORBIDDEN_MESSAGE } from '../authProvider';
import { formatDateTime } from '../common/format';
import type { ConsoleDataProvider } from '../dataProvider';

/** The workflow steps in words, as the console names them. */
export const STEP_LABELS: Record<string, string> = {
  ValidatePhotos: 'Checking the photos',
  AwaitReview: 'Waiting for review',
  AllocateSpot: 'Allocating a founding spot',
  CreateTalent: 'Creating the talent profile',
  InviteTalent: 'Inviting the talent to sign in',
  MarkPhotosForDeletion: 'Marking the photos for deletion',
  DeletePhotos: 'Deleting the photos',
  DeleteInvalidPhotos: 'Deleting the photos',
};

/**
 * A failed application: which step failed, with what error, and a Retry that resumes the
 * workflow at that step. Pessimistic: nothing changes on screen until the API has started it.
 */
export function FailureNotice({ application, onRetried }: { application: ApplicationDetail; onRetried: () => void }) {
  const dataProvider = useDataProvider<ConsoleDataProvider>();
  const notify = useNotify();
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const failure = application.failure;
  if (application.status !== 'failed' || !failure) return null;

  const retry = async () => {
    setPending(true);
    setError(null);
    try {
      const result = await dataProvider.retryApplication(application.id);
      // A 401 or 403 handled by authProvider.checkError resolves with `{ data: {} }`.
      if (result?.data?.resumedAt !== failure.step) throw new Error(FORBIDDEN_MESSAGE);
      notify('Retrying. The workflow resumes where it stopped.', { type: 'success' });
      onRetried();
    } catch (e) {
      const err = e as Error & { status?: number; body?: { error?: string } };
      setError(err.status === 409 ? 'This application is not failed any more. Reload to see its state.' : err.body?.error ?? err.message);
    } finally {
      setPending(false);
    }
  };

  return (
    <Alert
      severity="error"
      action={
        <Button color="inherit" variant="outlined" onClick={retry} disabled={pending} startIcon={pending ? <CircularProgress size={16} color="inherit" /> : <ReplayIcon />}>
          Retry
        </Button>
      }
    >
      <AlertTitle>The workflow stopped: {STEP_LABELS[failure.step] ?? failure.step} failed</AlertTitle>
      Error {failure.error} on {formatDateTime(failure.at)}
      {failure.retries ? `, after ${failure.retries} ${failure.retries === 1 ? 'retry' : 'retries'}` : ''}. Retry resumes the workflow at this step; the
      steps before it are not repeated.
      {error ? <div role="alert">{error}</div> : null}
    </Alert>
  );
}
