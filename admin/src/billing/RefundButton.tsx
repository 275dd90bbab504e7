import { Alert, Button, CircularProgress, Dialog, DialogActions, DialogContent, DialogContentText, DialogTitle, TextField } from '@mui/material';
import { useId, useState } from 'react';
import { useDataProvider } from 'react-admin';
import type { AdminRefundResponse, PaymentRecord } from '../../../events/payments';
import { FORBIDDEN_MESSAGE } from '../authProvider';
import type { ConsoleDataProvider } from '../dataProvider';
import { errorText } from '../common/errorText';
import { centsOfDollars, money } from './labels';

/**
 * "Refund": a reason and, for a partial refund, an amount. Pessimistic: the dialog waits for
 * Stripe's answer and shows it, and says that the credits follow once Stripe confirms the refund
 * (they are taken back by its event, not by this click). One Idempotency-Key per opening, so a
 * double click refunds once.
 */
export function RefundButton({ payment, onRefunded }: { payment: PaymentRecord; onRefunded: () => void }) {
  const dataProvider = useDataProvider<ConsoleDataProvider>();
  const titleId = useId();
  const remaining = payment.amountCents - payment.refundedCents;
  const [key, setKey] = useState<string | null>(null);
  const [reason, setReason] = useState('');
  const [amount, setAmount] = useState('');
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [result, setResult] = useState<AdminRefundResponse | null>(null);

  const cents = amount.trim() === '' ? remaining : centsOfDollars(amount);
  const amountError = amount.trim() === '' ? null : cents === undefined || cents < 1 ? 'An amount in dollars, such as 12.50.' : cents > remaining ? `At most ${money(remaining)}.` : null;
  const reasonValid = reason.trim().length >= 3 && reason.trim().length <= 200;

  const open = () => {
    setKey(crypto.randomUUID());
    setReason('');
    setAmount('');
    setError(null);
    setResult(null);
  };
  const close = () => {
    setKey(null);
    if (result) onRefunded();
  };
  const refund = async () => {
    if (!key || cents === undefined) return;
    setPending(true);
    setError(null);
    try {
      const answer = await dataProvider.refundPayment(payment.id, { reason: reason.trim(), ...(amount.trim() === '' ? {} : { amountCents: cents }) }, key);
      if (!answer?.data?.refundId) throw new Error(FORBIDDEN_MESSAGE);
      setResult(answer.data);
    } catch (e) {
      setError(errorText(e, 'The refund could not be made.'));
      // A refusal (400, 409) refunded nothing: the next attempt, perhaps of another amount, is a new one.
      // Anything else (no answer, 5xx) may have refunded: trying again keeps the key, so Stripe refunds once.
      const status = (e as { status?: number } | undefined)?.status;
      if (status === 400 || status === 409) setKey(crypto.randomUUID());
    } finally {
      setPending(false);
    }
  };

  return (
    <>
      <Button size="small" variant="outlined" color="error" onClick={open} aria-label={`Refund ${payment.description}`}>
        Refund
      </Button>
      <Dialog open={key !== null} onClose={pending ? undefined : close} fullWidth maxWidth="sm" aria-labelledby={titleId}>
        <DialogTitle id={titleId}>Refund {payment.description}</DialogTitle>
        <DialogContent sx={{ display: 'flex', flexDirection: 'column', gap: 2 }}>
          {result ? (
            <Alert severity="success" role="status">
              {result.message} {result.remainingCents > 0 ? `${money(result.remainingCents)} of this payment can still be refunded.` : ''}
            </Alert>
          ) : (
            <>
              <DialogContentText>
                Paid {money(payment.amountCents)}
                {payment.refundedCents ? `, ${money(payment.refundedCents)} refunded already` : ''}. Stripe returns the money to the client&rsquo;s card. The{' '}
                {payment.credits} credits it bought go back in proportion once Stripe confirms the refund; credits already spent cannot be taken back and flag the
                account.
              </DialogContentText>
              <TextField
                label="Reason"
                value={reason}
                onChange={(e) => setReason(e.target.value)}
                error={reason !== '' && !reasonValid}
                helperText="Recorded with your name on the payment and sent to Stripe."
                required
                autoFocus
                slotProps={{ htmlInput: { maxLength: 200 } }}
              />
              <TextField
                label="Amount in dollars (optional)"
                value={amount}
                onChange={(e) => setAmount(e.target.value)}
                error={amountError !== null}
                helperText={amountError ?? `Leave empty to refund all that is left: ${money(remaining)}.`}
                slotProps={{ htmlInput: { inputMode: 'decimal' } }}
              />
              {error ? <Alert severity="error">{error}</Alert> : null}
            </>
          )}
        </DialogContent>
        <DialogActions sx={{ px: 3, pb: 2 }}>
          {result ? (
            <Button variant="contained" onClick={close}>
              Done
            </Button>
          ) : (
            <>
              <Button onClick={close} disabled={pending}>
                Cancel
              </Button>
              <Button
                variant="contained"
                color="error"
                onClick={refund}
                disabled={pending || !reasonValid || amountError !== null}
                startIcon={pending ? <CircularProgress size={16} color="inherit" /> : undefined}
              >
                {`Refund ${cents !== undefined && amountError === null ? money(cents) : ''}`.trim()}
              </Button>
            </>
          )}
        </DialogActions>
      </Dialog>
    </>
  );
}
