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
  FormControl,
  FormControlLabel,
  FormLabel,
  Radio,
  RadioGroup,
  TextField,
} from '@mui/material';
import { useId, useState } from 'react';
import { useDataProvider, useNotify } from 'react-admin';
import { FORBIDDEN_MESSAGE } from '../authProvider';
import { errorText } from '../common/errorText';
import { Loaded } from '../common/Loaded';
import { useConsoleQuery } from '../common/useConsoleQuery';
import type { ConsoleDataProvider } from '../dataProvider';
import { ACTIONS, isWaiting } from './labels';
import type { ReportAction } from '../../../events/report-values';
import type { AdminReport } from '../../../events/reports';
import type { Talent } from '../../../events/talent';

/** A statement of reasons shorter than this is refused before it is sent. */
const MIN_REASONS = 20;

/** The actions this case allows: revoking, suspending and removing a sample need a license of ours. */
function actionsFor(report: AdminReport): ReportAction[] {
  return ['dismiss', ...(report.license ? (['revoke-license', 'suspend-client', 'remove-sample'] as const) : [])];
}

/**
 * Dismiss, revoke the license, suspend the client, remove the talent's sample: each in a dialog
 * that waits for a written statement of reasons (sent to the people it concerns). Pessimistic:
 * nothing changes on screen until the API has recorded the decision; its refusal (an appeal
 * decided by the reviewer who made the first decision) shows in the dialog, in its own words.
 */
export function DecisionActions({ report, onDecided, siteUrl }: { report: AdminReport; onDecided: () => void; siteUrl?: string }) {
  const dataProvider = useDataProvider<ConsoleDataProvider>();
  const notify = useNotify();
  const [action, setAction] = useState<ReportAction | null>(null);
  const [reasons, setReasons] = useState('');
  const [sampleUrl, setSampleUrl] = useState<string | null>(null);
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const short = reasons.trim().length < MIN_REASONS;
  const needsSample = action === 'remove-sample' && !sampleUrl;

  const close = () => {
    if (pending) return;
    setAction(null);
    setError(null);
  };
  const decide = async (chosen: ReportAction) => {
    setPending(true);
    setError(null);
    try {
      const result = await dataProvider.decideReport(report.reference, {
        action: chosen,
        reasons: reasons.trim(),
        ...(chosen === 'remove-sample' && sampleUrl ? { sampleUrl } : {}),
      });
      // After a handled 401 or 403, react-admin resolves with `{ data: {} }`: not a decision.
      if (!result?.data?.status) throw new Error(FORBIDDEN_MESSAGE);
      notify(ACTIONS[chosen].done, { type: 'success' });
      setAction(null);
      setReasons('');
      setSampleUrl(null);
      onDecided();
    } catch (e) {
      setError(errorText(e, 'The decision could not be recorded. Try again.'));
    } finally {
      setPending(false);
    }
  };

  if (!isWaiting(report.status)) return null;
  return (
    <Box sx={{ display: 'flex', gap: 1, flexWrap: 'wrap' }} data-testid="report-actions">
      {actionsFor(report).map((a) => (
        <Button key={a} variant={a === 'revoke-license' ? 'contained' : 'outlined'} color={a === 'dismiss' ? 'inherit' : 'error'} onClick={() => setAction(a)}>
          {ACTIONS[a].label}
        </Button>
      ))}
      <Dialog open={action !== null} onClose={close} fullWidth maxWidth="sm" aria-labelledby="report-decision-title">
        {action ? (
          <>
            <DialogTitle id="report-decision-title">
              {ACTIONS[action].title} · {report.reference}
            </DialogTitle>
            <DialogContent sx={{ display: 'flex', flexDirection: 'column', gap: 2 }}>
              <DialogContentText>{ACTIONS[action].body}</DialogContentText>
              {action === 'remove-sample' && report.license ? (
                <SamplePicker talentId={report.license.talentId} siteUrl={siteUrl} value={sampleUrl} onChange={setSampleUrl} />
              ) : null}
              {report.status === 'appealed' ? (
                <DialogContentText>This decides the client’s appeal and is final: the client is told a second reviewer decided it.</DialogContentText>
              ) : null}
              <TextField
                label="Statement of reasons"
                required
                multiline
                minRows={4}
                value={reasons}
                onChange={(e) => setReasons(e.target.value)}
                helperText={`Required, at least ${MIN_REASONS} characters. Sent word for word to the people this decision concerns, and kept in the case's history with your name.`}
                slotProps={{ htmlInput: { maxLength: 4000 } }}
                autoFocus
                fullWidth
              />
              {error ? (
                <Alert severity="error" role="alert" data-testid="decision-error">
                  {error}
                </Alert>
              ) : null}
            </DialogContent>
            <DialogActions sx={{ px: 3, pb: 2 }}>
              <Button onClick={close} disabled={pending}>
                Cancel
              </Button>
              <Button
                variant="contained"
                color={action === 'dismiss' ? 'primary' : 'error'}
                onClick={() => void decide(action)}
                disabled={pending || short || needsSample}
                startIcon={pending ? <CircularProgress size={16} color="inherit" /> : undefined}
              >
                {ACTIONS[action].confirm}
              </Button>
            </DialogActions>
          </>
        ) : null}
      </Dialog>
    </Box>
  );
}

/** A sample's address as the browser loads it: the site's own paths are on the site. */
const sampleSrc = (url: string, siteUrl = '') => (url.startsWith('/') ? `${siteUrl.replace(/\/$/, '')}${url}` : url);

/**
 * The talent's current samples as thumbnails, one to choose (a radio group: Tab reaches it, the
 * arrow keys move between the samples). The API refuses a sample that is not among them.
 */
function SamplePicker({ talentId, siteUrl, value, onChange }: { talentId: string; siteUrl?: string; value: string | null; onChange: (url: string) => void }) {
  const dataProvider = useDataProvider<ConsoleDataProvider>();
  const labelId = useId();
  const talent = useConsoleQuery<Talent>({
    queryKey: ['talent-samples', talentId],
    read: () => dataProvider.getOne<Talent>('talent', { id: talentId }),
    isAnswer: (data) => Array.isArray(data?.samples),
    forbidden: 'You do not have access to this.',
    failed: 'The talent’s samples could not be loaded.',
  });
  return (
    <Loaded query={talent} loading="Loading the talent’s samples…">
      {(data) =>
        data.samples.length === 0 ? (
          <Alert severity="info">This talent has no samples on their profile.</Alert>
        ) : (
          <FormControl>
            <FormLabel id={labelId} required>
              Which sample to remove
            </FormLabel>
            <RadioGroup aria-labelledby={labelId} value={value ?? ''} onChange={(e) => onChange(e.target.value)} sx={{ display: 'flex', flexDirection: 'row', flexWrap: 'wrap', gap: 1 }} data-testid="sample-picker">
              {data.samples.map((url, i) => (
                <FormControlLabel
                  key={url}
                  value={url}
                  control={<Radio />}
                  label={<Box component="img" src={sampleSrc(url, siteUrl)} alt={`Sample ${i + 1} of ${data.name}`} sx={{ width: 88, height: 88, objectFit: 'cover', borderRadius: 1, display: 'block' }} />}
                  sx={{ m: 0, pr: 1, border: 1, borderColor: value === url ? 'error.main' : 'divider', borderRadius: 1 }}
                />
              ))}
            </RadioGroup>
          </FormControl>
        )
      }
    </Loaded>
  );
}
