import CheckIcon from '@mui/icons-material/Check';
import CloseIcon from '@mui/icons-material/Close';
import {
  Alert,
  AlertTitle,
  Box,
  Button,
  CircularProgress,
  Dialog,
  DialogActions,
  DialogContent,
  DialogContentText,
  DialogTitle,
  TextField,
  Typography,
} from '@mui/material';
import { useEffect, useRef, useState } from 'react';
import { useDataProvider, useNotify } from 'react-admin';
import type { ApplicationDetail, EmailPreview } from '../../../events/founding';
import { FORBIDDEN_MESSAGE } from '../authProvider';
import type { ConsoleDataProvider } from '../dataProvider';
import { decisionRequest, gateTexts, identityReasonError, reasonRule } from './labels';

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

/** How long the message must rest before the preview is rendered again. */
const PREVIEW_DELAY_MS = 400;

/**
 * Accept and Reject with an internal note and an optional message to the applicant. The dialog
 * shows the email the decision will send, rendered by the API with the sending code, and the
 * decision can be confirmed only once the preview of the current message is shown. Pessimistic:
 * the decision resumes the application's workflow and cannot be undone, so nothing changes on
 * screen until the API has taken it. Accepting an application whose proof of person is not
 * complete (acceptGates: the ID not verified, a name or selfie that does not match, face checks
 * declined or withdrawn...) lists each gate and waits for a written reason and a named second
 * proof, which the history keeps; the server's refusal of them shows on those fields.
 */
export function DecisionButtons({ application, onDecided }: { application: ApplicationDetail; onDecided: () => void }) {
  const [decision, setDecision] = useState<Decision | null>(null);
  const [note, setNote] = useState('');
  const [message, setMessage] = useState('');
  const dataProvider = useDataProvider<ConsoleDataProvider>();
  const notify = useNotify();
  const name = [application.firstName, application.lastName].filter(Boolean).join(' ');
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<(Error & { status?: number; body?: { error?: string } }) | null>(null);
  const [preview, setPreview] = useState<{ for: string; email: EmailPreview } | null>(null);
  const [previewError, setPreviewError] = useState<string | null>(null);
  const [previewAttempt, setPreviewAttempt] = useState(0);
  const [identityReason, setIdentityReason] = useState('');
  const [secondProof, setSecondProof] = useState('');
  // The server asked for a reason the page did not know was needed (the identity changed meanwhile).
  const [reasonAsked, setReasonAsked] = useState(false);
  const [reasonError, setReasonError] = useState<string | undefined>(undefined);
  const reasonInput = useRef<HTMLTextAreaElement | null>(null);
  const given = { identityReason, secondProof };
  const rule = reasonRule(decision ?? 'reject', application.identity, given, reasonAsked);
  const gates = gateTexts(application.identity);

  // A refused reason: the field may only now be on the page; take the reviewer to it.
  useEffect(() => {
    if (reasonError) reasonInput.current?.focus();
  }, [reasonError]);
  const previewKey = decision ? `${decision}\n${message.trim()}` : '';
  const previewCurrent = preview !== null && preview.for === previewKey;

  useEffect(() => {
    if (!decision) return;
    let cancelled = false;
    const t = setTimeout(() => {
      setPreviewError(null);
      dataProvider
        .previewDecisionEmail(application.id, { decision, messageToApplicant: message })
        .then((result) => {
          if (cancelled) return;
          if (!result?.data?.subject) throw new Error(FORBIDDEN_MESSAGE);
          setPreview({ for: `${decision}\n${message.trim()}`, email: result.data });
        })
        .catch((e: Error & { body?: { error?: string } }) => {
          if (!cancelled) setPreviewError(e.body?.error ?? e.message ?? 'The email preview could not be loaded.');
        });
    }, PREVIEW_DELAY_MS);
    return () => {
      cancelled = true;
      clearTimeout(t);
    };
  }, [decision, message, previewAttempt, application.id, dataProvider]);

  const decide = async (d: Decision) => {
    setPending(true);
    setError(null);
    try {
      const request = decisionRequest(d, { note, messageToApplicant: message, identityReason, secondProof }, reasonRule(d, application.identity, given, reasonAsked).shown);
      const result = await dataProvider.decideApplication(application.id, request);
      // After authProvider.checkError has handled a 401 or 403, react-admin resolves the call
      // with `{ data: {} }` instead of rejecting: that is not a recorded decision.
      const recorded = result?.data?.decision;
      if ((typeof recorded === 'string' ? recorded : recorded?.decision) !== d) throw new Error(FORBIDDEN_MESSAGE);
      notify(TEXT[d].done, { type: 'success' });
      setDecision(null);
      setNote('');
      setMessage('');
      setIdentityReason('');
      setSecondProof('');
      setReasonAsked(false);
      setReasonError(undefined);
      setPreview(null);
      onDecided();
    } catch (e) {
      const refused = identityReasonError(e);
      if (refused) {
        setReasonAsked(true);
        setReasonError(refused);
      } else setError(e as Error);
    } finally {
      setPending(false);
    }
  };

  if (application.status !== 'pending_review' || application.decision) return null;
  const close = () => {
    if (pending) return;
    setDecision(null);
    setError(null);
    setReasonError(undefined);
    setPreview(null);
    setPreviewError(null);
  };

  return (
    <Box sx={{ display: 'flex', gap: 1 }}>
      <Button variant="contained" color="success" startIcon={<CheckIcon />} onClick={() => setDecision('accept')}>
        {TEXT.accept.button}
      </Button>
      <Button variant="outlined" color="error" startIcon={<CloseIcon />} onClick={() => setDecision('reject')}>
        {TEXT.reject.button}
      </Button>
      <Dialog open={decision !== null} onClose={close} fullWidth maxWidth="md" aria-labelledby="decision-title">
        {decision ? (
          <>
            <DialogTitle id="decision-title">{TEXT[decision].title(name)}</DialogTitle>
            <DialogContent sx={{ display: 'flex', flexDirection: 'column', gap: 2 }}>
              <DialogContentText>{TEXT[decision].body}</DialogContentText>
              {rule.shown ? (
                <>
                  <Alert severity="warning" data-testid="identity-warning">
                    {gates.length ? (
                      <>
                        <AlertTitle>The proof of person is not complete</AlertTitle>
                        <Box component="ul" sx={{ m: 0, pl: 2.5 }} data-testid="accept-gates">
                          {gates.map((g) => (
                            <li key={g.gate}>{g.text}</li>
                          ))}
                        </Box>
                        Accepting needs a written reason and the second proof of person you have, which the history keeps with your name.
                      </>
                    ) : (
                      <>
                        <AlertTitle>The proof of person changed</AlertTitle>
                        It is no longer complete as this page showed it: reload the page to see why, or write why you accept anyway and the second
                        proof you have.
                      </>
                    )}
                  </Alert>
                  {reasonError ? (
                    <Alert severity="error" role="alert" data-testid="gate-refusal">
                      {reasonError}
                    </Alert>
                  ) : null}
                  <TextField
                    label="Why accept anyway"
                    required
                    error={!!reasonError && !identityReason.trim()}
                    helperText="Required. Say what you compared and why it is the same person, an adult. Never sent to the applicant."
                    multiline
                    minRows={2}
                    value={identityReason}
                    onChange={(e) => {
                      setIdentityReason(e.target.value);
                      setReasonError(undefined);
                    }}
                    inputRef={reasonInput}
                    slotProps={{ htmlInput: { maxLength: 2000, 'data-testid': 'identity-reason' } }}
                    autoFocus
                    fullWidth
                  />
                  <TextField
                    label="Second proof"
                    required
                    error={!!reasonError && !secondProof.trim()}
                    helperText="Required. Name it: “Video call on 2 December with the applicant, ID shown on camera”. Never sent to the applicant."
                    value={secondProof}
                    onChange={(e) => {
                      setSecondProof(e.target.value);
                      setReasonError(undefined);
                    }}
                    slotProps={{ htmlInput: { maxLength: 500, 'data-testid': 'second-proof' } }}
                    fullWidth
                  />
                </>
              ) : null}
              <TextField
                label="Internal note"
                helperText="Kept in the application's history with your name. Never sent to the applicant."
                multiline
                minRows={2}
                value={note}
                onChange={(e) => setNote(e.target.value)}
                slotProps={{ htmlInput: { maxLength: 2000 } }}
                autoFocus={!rule.shown}
                fullWidth
              />
              <TextField
                label="Message to the applicant (optional)"
                helperText="Sent to the applicant in the email below, word for word."
                multiline
                minRows={2}
                value={message}
                onChange={(e) => setMessage(e.target.value)}
                slotProps={{ htmlInput: { maxLength: 2000 } }}
                fullWidth
              />
              <Box component="section" aria-labelledby="email-preview-title" sx={{ border: 1, borderColor: 'divider', borderRadius: 1, p: 1.5 }}>
                <Box sx={{ display: 'flex', alignItems: 'center', gap: 1, mb: 1 }}>
                  <Typography id="email-preview-title" component="h3" variant="subtitle2">
                    Email to the applicant
                  </Typography>
                  {!previewCurrent && !previewError ? <CircularProgress size={14} aria-label="Updating the email preview" /> : null}
                </Box>
                {previewError ? (
                  <Alert severity="error" action={<Button onClick={() => setPreviewAttempt((n) => n + 1)}>Try again</Button>}>
                    The email preview could not be loaded: {previewError}
                  </Alert>
                ) : preview ? (
                  <Box sx={{ opacity: previewCurrent ? 1 : 0.5 }} data-testid="email-preview">
                    <Typography variant="body2">
                      <strong>To:</strong> {preview.email.to}
                    </Typography>
                    <Typography variant="body2" sx={{ mb: 1 }}>
                      <strong>Subject:</strong> {preview.email.subject}
                    </Typography>
                    <Box
                      component="iframe"
                      title="The email as the applicant will see it"
                      sandbox=""
                      srcDoc={preview.email.html}
                      sx={{ width: '100%', height: 320, border: 1, borderColor: 'divider', borderRadius: 1, bgcolor: 'background.paper' }}
                    />
                  </Box>
                ) : null}
              </Box>
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
                disabled={pending || !previewCurrent || rule.missing}
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
