import { Alert, Button, CircularProgress, Dialog, DialogActions, DialogContent, DialogContentText, DialogTitle, TextField, Typography } from '@mui/material';
import { useId, useState } from 'react';
import { useDataProvider, useNotify } from 'react-admin';
import { dollarsOfCents } from '../../../events/royalty-format';
import type { AdminStatement, MarkPayoutRequest } from '../../../events/royalties';
import { NOTHING_DUE_MESSAGE, PAYOUT_REFERENCE_MAX_LENGTH } from '../../../events/royalty-values';
import { FORBIDDEN_MESSAGE } from '../authProvider';
import type { ConsoleDataProvider } from '../dataProvider';
import { errorText } from '../users/labels';

const today = () => new Date().toISOString().slice(0, 10);

/**
 * "Mark paid" (the payment's reference and the day it was paid) or "Mark unpaid". Pessimistic:
 * the page changes once the API has stored the change and its audit entry; a refusal is shown
 * in the dialog. A statement with nothing due has no payment to record: the server refuses
 * "paid" (409), so the button is off and says why.
 */
export function PayoutActions({ statement, onChanged }: { statement: AdminStatement; onChanged: () => void }) {
  const dataProvider = useDataProvider<ConsoleDataProvider>();
  const notify = useNotify();
  const titleId = useId();
  const [open, setOpen] = useState(false);
  const [reference, setReference] = useState('');
  const [day, setDay] = useState(today());
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const paid = statement.payout.status === 'paid';
  const nothingDue = statement.payout.status === 'nothing-due';
  const hintId = useId();
  const amount = `$${dollarsOfCents(statement.totals.royaltyCents)}`;

  const openDialog = () => {
    setReference('');
    setDay(today());
    setError(null);
    setOpen(true);
  };
  const submit = async () => {
    // Today means now (the API's default); another day is recorded at noon UTC of that day.
    const request: MarkPayoutRequest = paid ? { status: 'unpaid' } : { status: 'paid', reference: reference.trim(), ...(day && day !== today() ? { paidAt: `${day}T12:00:00.000Z` } : {}) };
    setPending(true);
    setError(null);
    try {
      const answer = await dataProvider.markStatementPayout(statement.id, request);
      if (answer?.data?.id !== statement.id) throw new Error(FORBIDDEN_MESSAGE);
      notify(paid ? 'Marked unpaid.' : `Marked paid: ${amount}, reference ${request.status === 'paid' ? request.reference : ''}.`, { type: 'success' });
      setOpen(false);
      onChanged();
    } catch (e) {
      setError(errorText(e, 'The payout could not be changed.'));
    } finally {
      setPending(false);
    }
  };
  const canSubmit = paid || reference.trim().length > 0;

  return (
    <>
      <Button variant={paid ? 'outlined' : 'contained'} onClick={openDialog} disabled={nothingDue} aria-describedby={nothingDue ? hintId : undefined}>
        {paid ? 'Mark unpaid' : 'Mark paid'}
      </Button>
      {nothingDue ? (
        <Typography id={hintId} variant="body2" color="text.secondary" data-testid="nothing-due" sx={{ maxWidth: 320 }}>
          {NOTHING_DUE_MESSAGE}
        </Typography>
      ) : null}
      <Dialog open={open} onClose={pending ? undefined : () => setOpen(false)} fullWidth maxWidth="sm" aria-labelledby={titleId}>
        <DialogTitle id={titleId}>{paid ? `Mark ${statement.talentName}'s statement unpaid?` : `Mark ${amount} to ${statement.talentName} paid`}</DialogTitle>
        <DialogContent sx={{ display: 'flex', flexDirection: 'column', gap: 2 }}>
          <DialogContentText>
            {paid
              ? `It was recorded paid on ${statement.payout.paidAt?.slice(0, 10)} with reference ${statement.payout.reference}. The change is recorded with your email.`
              : 'Enter the reference of the PayPal or Wise payment. The change is recorded with your email.'}
          </DialogContentText>
          {paid ? null : (
            <>
              <TextField
                label="Payment reference"
                value={reference}
                onChange={(e) => setReference(e.target.value)}
                required
                autoFocus
                slotProps={{ htmlInput: { maxLength: PAYOUT_REFERENCE_MAX_LENGTH } }}
              />
              <TextField
                label="Paid on"
                type="date"
                value={day}
                onChange={(e) => setDay(e.target.value)}
                slotProps={{ inputLabel: { shrink: true }, htmlInput: { max: today(), min: statement.closedAt.slice(0, 10) } }}
              />
            </>
          )}
          {error ? <Alert severity="error">{error}</Alert> : null}
        </DialogContent>
        <DialogActions sx={{ px: 3, pb: 2 }}>
          <Button onClick={() => setOpen(false)} disabled={pending}>
            Cancel
          </Button>
          <Button
            variant="contained"
            color={paid ? 'warning' : 'primary'}
            onClick={submit}
            disabled={pending || !canSubmit}
            startIcon={pending ? <CircularProgress size={16} color="inherit" /> : undefined}
          >
            {paid ? 'Mark unpaid' : 'Mark paid'}
          </Button>
        </DialogActions>
      </Dialog>
    </>
  );
}
