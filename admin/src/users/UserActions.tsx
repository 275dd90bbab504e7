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
  MenuItem,
  TextField,
} from '@mui/material';
import { useId, useState, type ReactNode } from 'react';
import { useDataProvider, useNotify } from 'react-admin';
import { GRANT_CATEGORIES, GRANT_CATEGORY_LABELS, type GrantCategory } from '../../../events/account-values';
import type { AdminUserDetail } from '../../../events/accounts';
import { MAX_ADMIN_GRANT } from '../../../events/accounts';
import type { PlanId } from '../../../events/plans';
import { FORBIDDEN_MESSAGE } from '../authProvider';
import type { ConsoleDataProvider } from '../dataProvider';
import { PLAN_CHOICES, planName } from './labels';
import { errorText } from '../common/errorText';

/**
 * A confirmation dialog whose action waits for the API (pessimistic): nothing changes on screen
 * until the change is stored, and a refusal is shown in the dialog.
 */
function ConfirmDialog(props: {
  open: boolean;
  title: string;
  confirm: string;
  color?: 'primary' | 'error' | 'success';
  pending: boolean;
  error: string | null;
  canConfirm?: boolean;
  onConfirm: () => void;
  onClose: () => void;
  children?: ReactNode;
}) {
  const titleId = useId();
  return (
    <Dialog open={props.open} onClose={props.pending ? undefined : props.onClose} fullWidth maxWidth="sm" aria-labelledby={titleId}>
      <DialogTitle id={titleId}>{props.title}</DialogTitle>
      <DialogContent sx={{ display: 'flex', flexDirection: 'column', gap: 2 }}>
        {props.children}
        {props.error ? <Alert severity="error">{props.error}</Alert> : null}
      </DialogContent>
      <DialogActions sx={{ px: 3, pb: 2 }}>
        <Button onClick={props.onClose} disabled={props.pending}>
          Cancel
        </Button>
        <Button
          variant="contained"
          color={props.color ?? 'primary'}
          onClick={props.onConfirm}
          disabled={props.pending || props.canConfirm === false}
          startIcon={props.pending ? <CircularProgress size={16} color="inherit" /> : undefined}
        >
          {props.confirm}
        </Button>
      </DialogActions>
    </Dialog>
  );
}

/** Runs one console call: pending and error state, and a check that the answer is the account (not react-admin's `{data: {}}` after a 401/403). */
function useAccountCall() {
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const run = async (call: () => Promise<boolean>, fallback: string): Promise<boolean> => {
    setPending(true);
    setError(null);
    try {
      if (!(await call())) throw new Error(FORBIDDEN_MESSAGE);
      return true;
    } catch (e) {
      setError(errorText(e, fallback));
      return false;
    } finally {
      setPending(false);
    }
  };
  return { pending, error, setError, run };
}

type Changed = () => void;

/** The plan: a select, then a confirmation naming the old and the new plan. */
export function PlanControl({ user, onChanged }: { user: AdminUserDetail; onChanged: Changed }) {
  const dataProvider = useDataProvider<ConsoleDataProvider>();
  const notify = useNotify();
  const [plan, setPlan] = useState<PlanId>(user.plan ?? 'free');
  const [open, setOpen] = useState(false);
  const call = useAccountCall();
  const save = async () => {
    const ok = await call.run(async () => (await dataProvider.setUserPlan(user.id, plan))?.data?.plan === plan, 'The plan could not be changed.');
    if (ok) {
      notify(`Plan changed to ${planName(plan)}.`, { type: 'success' });
      setOpen(false);
      onChanged();
    }
  };
  return (
    <Box sx={{ display: 'flex', gap: 1, alignItems: 'center', flexWrap: 'wrap' }}>
      <TextField select size="small" label="Plan" value={plan} onChange={(e) => setPlan(e.target.value as PlanId)} sx={{ minWidth: 160 }}>
        {PLAN_CHOICES.map((p) => (
          <MenuItem key={p.id} value={p.id}>
            {p.name}
          </MenuItem>
        ))}
      </TextField>
      <Button variant="outlined" disabled={plan === user.plan} onClick={() => (call.setError(null), setOpen(true))}>
        Change plan
      </Button>
      <ConfirmDialog
        open={open}
        title={`Change the plan of ${user.email}?`}
        confirm={`Change to ${planName(plan)}`}
        pending={call.pending}
        error={call.error}
        onConfirm={save}
        onClose={() => setOpen(false)}
      >
        <DialogContentText>
          From {planName(user.plan)} to {planName(plan)}. The change is recorded with your name.
          {user.planRequest ? ` Their pending request for ${planName(user.planRequest.plan)} will be closed.` : ''}
        </DialogContentText>
      </ConfirmDialog>
    </Box>
  );
}

/**
 * "Grant credits": credits, the reason's category (a grant for testing earns talent nothing) and
 * the reason; one Idempotency-Key per opening, so a double click grants once.
 */
export function GrantCreditsButton({ user, onChanged }: { user: AdminUserDetail; onChanged: Changed }) {
  const dataProvider = useDataProvider<ConsoleDataProvider>();
  const notify = useNotify();
  const [key, setKey] = useState<string | null>(null);
  const [credits, setCredits] = useState('');
  const [category, setCategory] = useState<GrantCategory | ''>('');
  const [reason, setReason] = useState('');
  const call = useAccountCall();
  const amount = Number(credits);
  const amountValid = /^\d+$/.test(credits) && amount >= 1 && amount <= MAX_ADMIN_GRANT;
  const reasonValid = reason.trim().length >= 3;
  const openDialog = () => {
    setKey(crypto.randomUUID());
    setCredits('');
    setCategory('');
    setReason('');
    call.setError(null);
  };
  const grant = async () => {
    if (!key || !category) return;
    let balance = 0;
    const ok = await call.run(async () => {
      const result = await dataProvider.grantCredits(user.id, { credits: amount, category, reason: reason.trim() }, key);
      balance = result?.data?.balance;
      return typeof balance === 'number';
    }, 'The credits could not be granted.');
    if (ok) {
      notify(`${amount} credits granted. The balance is now ${balance}.`, { type: 'success' });
      setKey(null);
      onChanged();
    }
  };
  return (
    <>
      <Button variant="contained" onClick={openDialog}>
        Grant credits
      </Button>
      <ConfirmDialog
        open={key !== null}
        title={`Grant credits to ${user.email}`}
        confirm="Grant credits"
        pending={call.pending}
        error={call.error}
        canConfirm={amountValid && category !== '' && reasonValid}
        onConfirm={grant}
        onClose={() => setKey(null)}
      >
        <DialogContentText>
          The ledger line names you and the reason; the client sees the reason in their portal. Granted credits are promotional: talent earn on them
          at most the cheapest paid credit&rsquo;s royalty, and nothing on credits granted for testing.
        </DialogContentText>
        <TextField
          label="Credits"
          type="number"
          value={credits}
          onChange={(e) => setCredits(e.target.value)}
          error={credits !== '' && !amountValid}
          helperText={`A whole number from 1 to ${MAX_ADMIN_GRANT.toLocaleString('en')}.`}
          slotProps={{ htmlInput: { min: 1, max: MAX_ADMIN_GRANT, step: 1 } }}
          autoFocus
          required
        />
        <TextField
          select
          label="Reason category"
          value={category}
          onChange={(e) => setCategory(e.target.value as GrantCategory)}
          helperText="Credits granted for testing earn talent nothing."
          required
          fullWidth
        >
          {GRANT_CATEGORIES.map((c) => (
            <MenuItem key={c} value={c}>
              {GRANT_CATEGORY_LABELS[c]}
            </MenuItem>
          ))}
        </TextField>
        <TextField
          label="Reason"
          value={reason}
          onChange={(e) => setReason(e.target.value)}
          error={reason !== '' && !reasonValid}
          helperText="At least 3 characters, for example “Make-good for a failed generation”."
          slotProps={{ htmlInput: { maxLength: 200 } }}
          required
          fullWidth
        />
      </ConfirmDialog>
    </>
  );
}

/** Disable (sign-in off, signed out everywhere) or enable, with a confirmation and an optional reason. */
export function AccountStateButton({ user, onChanged }: { user: AdminUserDetail; onChanged: Changed }) {
  const dataProvider = useDataProvider<ConsoleDataProvider>();
  const notify = useNotify();
  const [open, setOpen] = useState(false);
  const [reason, setReason] = useState('');
  const call = useAccountCall();
  const disable = !user.disabled;
  const save = async () => {
    const ok = await call.run(
      async () => (await dataProvider.setUserDisabled(user.id, disable, reason))?.data?.disabled === disable,
      `The account could not be ${disable ? 'disabled' : 'enabled'}.`,
    );
    if (ok) {
      notify(disable ? 'Account disabled. They are signed out everywhere.' : 'Account enabled. They can sign in again.', { type: 'success' });
      setOpen(false);
      onChanged();
    }
  };
  return (
    <>
      <Button variant="outlined" color={disable ? 'error' : 'success'} onClick={() => (setReason(''), call.setError(null), setOpen(true))}>
        {disable ? 'Disable account' : 'Enable account'}
      </Button>
      <ConfirmDialog
        open={open}
        title={`${disable ? 'Disable' : 'Enable'} ${user.email}?`}
        confirm={disable ? 'Disable account' : 'Enable account'}
        color={disable ? 'error' : 'success'}
        pending={call.pending}
        error={call.error}
        onConfirm={save}
        onClose={() => setOpen(false)}
      >
        <DialogContentText>
          {disable
            ? 'They can no longer sign in, every session they have ends, and their portal refuses them until an admin enables the account.'
            : 'They can sign in again with their password.'}
        </DialogContentText>
        <TextField
          label="Reason (optional)"
          helperText="Kept in the account's audit trail with your name."
          value={reason}
          onChange={(e) => setReason(e.target.value)}
          slotProps={{ htmlInput: { maxLength: 200 } }}
          autoFocus
          fullWidth
        />
      </ConfirmDialog>
    </>
  );
}

/** A pending plan request: approve (sets the plan) or decline, each confirmed. */
export function PlanRequestControl({ user, onChanged }: { user: AdminUserDetail; onChanged: Changed }) {
  const dataProvider = useDataProvider<ConsoleDataProvider>();
  const notify = useNotify();
  const [choice, setChoice] = useState<'approve' | 'decline' | null>(null);
  const call = useAccountCall();
  const request = user.planRequest;
  if (!request) return null;
  const save = async () => {
    const ok = await call.run(async () => {
      const result = choice === 'approve' ? await dataProvider.setUserPlan(user.id, request.plan) : await dataProvider.declinePlanRequest(user.id);
      return result?.data?.id === user.id;
    }, 'The request could not be answered.');
    if (ok) {
      notify(choice === 'approve' ? `Plan changed to ${planName(request.plan)}.` : 'Plan request declined.', { type: 'success' });
      setChoice(null);
      onChanged();
    }
  };
  return (
    <Box sx={{ display: 'flex', gap: 1 }}>
      <Button variant="contained" color="success" onClick={() => (call.setError(null), setChoice('approve'))}>
        Approve
      </Button>
      <Button variant="outlined" color="error" onClick={() => (call.setError(null), setChoice('decline'))}>
        Decline
      </Button>
      <ConfirmDialog
        open={choice !== null}
        title={choice === 'approve' ? `Move ${user.email} to ${planName(request.plan)}?` : `Decline the request for ${planName(request.plan)}?`}
        confirm={choice === 'approve' ? 'Approve and change plan' : 'Decline request'}
        color={choice === 'approve' ? 'success' : 'error'}
        pending={call.pending}
        error={call.error}
        onConfirm={save}
        onClose={() => setChoice(null)}
      >
        <DialogContentText>
          {choice === 'approve'
            ? `Their plan changes from ${planName(user.plan)} to ${planName(request.plan)}. The change is recorded with your name.`
            : `Their plan stays ${planName(user.plan)}. The decline is recorded with your name.`}
        </DialogContentText>
      </ConfirmDialog>
    </Box>
  );
}
