import CheckIcon from '@mui/icons-material/Check';
import CloseIcon from '@mui/icons-material/Close';
import {
  Alert,
  Box,
  Button,
  CircularProgress,
  Dialog,
  DialogActions,
  DialogContent,
  DialogContentText,
  DialogTitle,
  TextField,
} from '@mui/material';
import { useState } from 'react';
import { useDataProvider, useNotify } from 'react-admin';
import type { ApplicationDetail } from '../../../events/founding';
import { FORBIDDEN_MESSAGE } from '../authProvider';
import type { ConsoleDataProvider } from '../dataProvider';

type Decision = 'accept' | 'reject';

const TEXT: Record<Decision, { button: string; title: (name: string) => string; body: string; confirm: string; done: string }> = {
  accept: {
    button: 'Accept',
    title: (name) => `Accept ${name}?`,
    body:
      'Accepting takes a founding spot while spots are left, creates their talent profile (hidden until it is ready), invites them to sign in and emails them the good news. This cannot be undone.',
    confirm: 'Accept application',
    done: 'Application accepted. The acceptance email is on its way.',
  },
  reject: {
    button: 'Reject',
    title: (name) => `Reject ${name}?`,
    body: 'Rejecting emails the applicant and deletes their photos after the retention period. This cannot be undone.',
    confirm: 'Reject application',
    done: 'Application rejected. The applicant will be told by email.',
  },
};

/**
 * Accept and Reject with a note. Pessimistic: the decision resumes the application's workflow
 * and cannot be undone, so nothing changes on screen until the API has taken it.
 */
export function DecisionButtons({ application, onDecided }: { application: ApplicationDetail; onDecided: () => void }) {
  const [decision, setDecision] = useState<Decision | null>(null);
  const [note, setNote] = useState('');
  const dataProvider = useDataProvider<ConsoleDataProvider>();
  const notify = useNotify();
  const name = [application.firstName, application.lastName].filter(Boolean).join(' ');
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<(Error & { status?: number; body?: { error?: string } }) | null>(null);
  const decide = async (d: Decision) => {
    setPending(true);
    setError(null);
    try {
      const result = await dataProvider.decideApplication(application.id, { decision: d, note });
      // After authProvider.checkError has handled a 401 or 403, react-admin resolves the call
      // with `{ data: {} }` instead of rejecting: that is not a recorded decision.
      const recorded = result?.data?.decision;
      if ((typeof recorded === 'string' ? recorded : recorded?.decision) !== d) throw new Error(FORBIDDEN_MESSAGE);
      notify(TEXT[d].done, { type: 'success' });
      setDecision(null);
      setNote('');
      onDecided();
    } catch (e) {
      setError(e as Error);
    } finally {
      setPending(false);
    }
  };

  if (application.status !== 'pending_review' || application.decision) return null;
  const close = () => {
    if (pending) return;
    setDecision(null);
    setError(null);
  };

  return (
    <Box sx={{ display: 'flex', gap: 1 }}>
      <Button variant="contained" color="success" startIcon={<CheckIcon />} onClick={() => setDecision('accept')}>
        {TEXT.accept.button}
      </Button>
      <Button variant="outlined" color="error" startIcon={<CloseIcon />} onClick={() => setDecision('reject')}>
        {TEXT.reject.button}
      </Button>
      <Dialog open={decision !== null} onClose={close} fullWidth maxWidth="sm" aria-labelledby="decision-title">
        {decision ? (
          <>
            <DialogTitle id="decision-title">{TEXT[decision].title(name)}</DialogTitle>
            <DialogContent sx={{ display: 'flex', flexDirection: 'column', gap: 2 }}>
              <DialogContentText>{TEXT[decision].body}</DialogContentText>
              <TextField
                label="Note"
                helperText="Kept in the application's history with your name. Not sent to the applicant."
                multiline
                minRows={3}
                value={note}
                onChange={(e) => setNote(e.target.value)}
                slotProps={{ htmlInput: { maxLength: 2000 } }}
                autoFocus
                fullWidth
              />
              {error ? (
                <Alert severity="error">
                  {error.status === 409
                    ? 'This application has already been decided, or is not waiting for review any more. Reload to see its state.'
                    : error.body?.error ?? error.message ?? 'The decision could not be recorded. Try again.'}
                </Alert>
              ) : null}
            </DialogContent>
            <DialogActions sx={{ px: 3, pb: 2 }}>
              <Button onClick={close} disabled={pending}>
                Cancel
              </Button>
              <Button
                variant="contained"
                color={decision === 'accept' ? 'success' : 'error'}
                onClick={() => decide(decision)}
                disabled={pending}
                startIcon={pending ? <CircularProgress size={16} color="inherit" /> : undefined}
              >
                {TEXT[decision].confirm}
              </Button>
            </DialogActions>
          </>
        ) : null}
      </Dialog>
    </Box>
  );
}
