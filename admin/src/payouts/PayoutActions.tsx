import { Alert, Box, Button, CircularProgress, Dialog, DialogActions, DialogContent, DialogContentText, DialogTitle, TextField } from '@mui/material';
import { useId, useState } from 'react';
import { useDataProvider, useNotify } from 'react-admin';
import type { StatementPayout } from '../../../events/payouts';
import { FORBIDDEN_MESSAGE } from '../authProvider';
import type { ConsoleDataProvider } from '../dataProvider';
import { errorText } from '../common/errorText';
import { canMarkManual, canRetry, manualRequest, usd, type ManualForm } from './labels';

const today = () => new Date().toISOString().slice(0, 10);
const who = (p: StatementPayout) => p.talentName ?? p.talentId;

/**
 * A payout row's actions: "Retry" on a failed payout (once its cause is fixed), and "Mark paid
 * outside Stripe" with the payment's reference and a reason. Both pessimistic: the row changes
 * once the API answers; a refusal is shown where it was asked.
 */
export function PayoutActions({ payout, onChanged }: { payout: StatementPayout; onChanged: () => void }) {
  return (
    <Box sx={{ display: 'flex', gap: 1, flexWrap: 'wrap', justifyContent: 'flex-end' }}>
      {canRetry(payout) ? <RetryButton payout={payout} onChanged={onChanged} /> : null}
      {canMarkManual(payout) ? <ManualButton payout={payout} onChanged={onChanged} /> : null}
    </Box>
  );
}

function RetryButton({ payout, onChanged }: { payout: StatementPayout; onChanged: () => void }) {
  const dataProvider = useDataProvider<ConsoleDataProvider>();
  const notify = useNotify();
  const [pending, setPending] = useState(false);
  const retry = async () => {
    setPending(true);
    try {
      const answer = await dataProvider.retryPayout(payout.statementId);
      if (answer?.data?.statementId !== payout.statementId) throw new Error(FORBIDDEN_MESSAGE);
      const p = answer.data;
      notify(p.state === 'paid' ? `Paid ${usd(p.amountCents)} to ${who(p)}: ${p.transferId ?? ''}.` : `The retry for ${who(p)} ended ${p.state}${p.failure ? `: ${p.failure}` : '.'}`, {
        type: p.state === 'paid' ? 'success' : 'warning',
      });
      onChanged();
    } catch (e) {
      notify(`The retry for ${who(payout)} was refused. ${errorText(e, '')}`, { type: 'error' });
    } finally {
      setPending(false);
    }
  };
  return (
    <Button size="small" variant="contained" onClick={retry} disabled={pending} startIcon={pending ? <CircularProgress size={16} color="inherit" /> : undefined}>
      Retry<Box component="span" sx={visuallyHidden}>{` the payout to ${who(payout)}`}</Box>
    </Button>
  );
}

/** Hidden from sight, read by screen readers (the row's talent, for buttons repeated on every row). In `sx`, `width: 1` would be 100%. */
const visuallyHidden = { position: 'absolute', width: '1px', height: '1px', overflow: 'hidden', clip: 'rect(0 0 0 0)', whiteSpace: 'nowrap' } as const;

function ManualButton({ payout, onChanged }: { payout: StatementPayout; onChanged: () => void }) {
  const dataProvider = useDataProvider<ConsoleDataProvider>();
  const notify = useNotify();
  const titleId = useId();
  const [open, setOpen] = useState(false);
  const [form, setForm] = useState<ManualForm>({ reference: '', reason: '', paidOn: today() });
  const [errors, setErrors] = useState<Partial<Record<keyof ManualForm, string>>>({});
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const openDialog = () => {
    setForm({ reference: '', reason: '', paidOn: today() });
    setErrors({});
    setError(null);
    setOpen(true);
  };
  const field = (name: keyof ManualForm) => ({
    value: form[name],
    onChange: (e: { target: { value: string } }) => setForm((f) => ({ ...f, [name]: e.target.value })),
    error: Boolean(errors[name]),
    helperText: errors[name] ?? ' ',
    disabled: pending,
  });
  const submit = async () => {
    const checked = manualRequest(form);
    if ('errors' in checked) {
      setErrors(checked.errors);
      return;
    }
    setErrors({});
    setPending(true);
    setError(null);
    try {
      const answer = await dataProvider.markPayoutManual(payout.statementId, checked.request);
      if (answer?.data?.statementId !== payout.statementId) throw new Error(FORBIDDEN_MESSAGE);
      notify(`Recorded: ${usd(answer.data.amountCents)} paid to ${who(payout)} outside Stripe, reference ${checked.request.reference}.`, { type: 'success' });
      setOpen(false);
      onChanged();
    } catch (e) {
      setError(errorText(e, 'The payment could not be recorded.'));
    } finally {
      setPending(false);
    }
  };

  return (
    <>
      <Button size="small" variant="outlined" onClick={openDialog}>
        Mark paid outside Stripe<Box component="span" sx={visuallyHidden}>{`: ${who(payout)}`}</Box>
      </Button>
      <Dialog open={open} onClose={pending ? undefined : () => setOpen(false)} fullWidth maxWidth="sm" aria-labelledby={titleId}>
        <DialogTitle id={titleId}>{`Mark ${usd(payout.amountCents)} to ${who(payout)} paid outside Stripe`}</DialogTitle>
        <DialogContent sx={{ display: 'flex', flexDirection: 'column', gap: 1 }}>
          <DialogContentText sx={{ mb: 1 }}>
            Only for talent paid another way (a bank wire, Wise). No transfer is made: the statement is recorded as paid with this reference, the reason and your email.
          </DialogContentText>
          <TextField label="Payment reference" required autoFocus slotProps={{ htmlInput: { maxLength: 100 } }} {...field('reference')} />
          <TextField label="Why outside Stripe" required multiline minRows={2} slotProps={{ htmlInput: { maxLength: 200 } }} {...field('reason')} />
          <TextField label="Paid on" type="date" slotProps={{ inputLabel: { shrink: true }, htmlInput: { max: today() } }} {...field('paidOn')} />
          {error ? <Alert severity="error">{error}</Alert> : null}
        </DialogContent>
        <DialogActions sx={{ px: 3, pb: 2 }}>
          <Button onClick={() => setOpen(false)} disabled={pending}>
            Cancel
          </Button>
          <Button variant="contained" onClick={submit} disabled={pending} startIcon={pending ? <CircularProgress size={16} color="inherit" /> : undefined}>
            Mark paid
          </Button>
        </DialogActions>
      </Dialog>
    </>
  );
}
