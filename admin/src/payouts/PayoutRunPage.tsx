import DownloadIcon from '@mui/icons-material/Download';
import PlayArrowIcon from '@mui/icons-material/PlayArrow';
import {
  Alert,
  Box,
  Button,
  Card,
  CardContent,
  Chip,
  CircularProgress,
  DialogContentText,
  Table,
  TableBody,
  TableCell,
  TableContainer,
  TableHead,
  TableRow,
  TextField,
  Typography,
  useMediaQuery,
  type Theme,
} from '@mui/material';
import { useId, useState, type ReactNode } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { Title, useDataProvider, useNotify } from 'react-admin';
import { useSearchParams } from 'react-router';
import { PayoutMonth, type PayoutRun, type StatementPayout } from '../../../events/payouts';
import { ConfirmDialog } from '../common/ConfirmDialog';
import { Fields } from '../common/DetailSection';
import { NameCell } from '../common/NameCell';
import type { ConsoleDataProvider } from '../dataProvider';
import { errorText } from '../common/errorText';
import { Loaded } from '../common/Loaded';
import { useConsoleQuery } from '../common/useConsoleQuery';
import { PayoutActions } from './PayoutActions';
import { actionText, lastRunText, latestClosedMonth, monthLabel, noteOf, PAYOUT_STATE_LABELS, PAYOUT_STATE_STYLES, payoutRunCsvName, reconciliationText, referenceOf, totalsRows, usd } from './labels';
import { saveFile } from '../common/saveFile';

/** A month's payout run (GET /admin/payout-runs/{month}); off until a valid month is chosen. */
function usePayoutRun(month: string | undefined) {
  const dataProvider = useDataProvider<ConsoleDataProvider>();
  return useConsoleQuery({
    queryKey: ['payout-run', month],
    read: () => dataProvider.getPayoutRun(month ?? ''),
    isAnswer: (data) => Array.isArray(data.payouts),
    forbidden: 'You do not have access to payouts.',
    failed: 'The payout run could not be loaded.',
    enabled: Boolean(month),
  });
}

/**
 * Payouts (docs/product.md#console-payouts): a month's payout run. The month defaults to the
 * latest closed one; "Run payouts" (asked first, idempotent) transfers what is due; the table
 * shows each statement's payout with Retry and "Mark paid outside Stripe"; the totals and the
 * reconciliation with Stripe's transfers say whether the month balances; the CSV is for accounting.
 */
export function PayoutRunPage() {
  const [params, setParams] = useSearchParams();
  const [typed, setTyped] = useState(() => params.get('month') ?? latestClosedMonth());
  const valid = PayoutMonth.safeParse(typed).success;
  const month = valid ? typed : undefined;
  const run = usePayoutRun(month);
  const queryClient = useQueryClient();
  // "Run payouts" answers with the run: show it without reading it again.
  const set = (answer: PayoutRun) => queryClient.setQueryData(['console', 'payout-run', answer.month], answer);
  const monthId = useId();
  const headingId = useId();

  const chooseMonth = (value: string) => {
    setTyped(value);
    if (PayoutMonth.safeParse(value).success) setParams({ month: value }, { replace: true });
  };

  return (
    <Box sx={{ mt: 2, display: 'flex', flexDirection: 'column', gap: 2 }} data-testid="payout-run-page">
      <Title title="Payouts" />
      <Card component="section" aria-labelledby={headingId}>
        <CardContent sx={{ display: 'flex', flexWrap: 'wrap', gap: 2, alignItems: 'flex-start', justifyContent: 'space-between' }}>
          <Box>
            <Typography id={headingId} component="h1" variant="h5">
              {month ? `Payouts for ${monthLabel(month)}` : 'Payouts'}
            </Typography>
            <Typography variant="body2" color="text.secondary" data-testid="payout-last-run">
              {run.data ? lastRunText(run.data) : '\u00a0'}
            </Typography>
          </Box>
          <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 1.5, alignItems: 'flex-start' }}>
            <TextField
              id={monthId}
              label="Month"
              type="month"
              size="small"
              value={typed}
              onChange={(e) => chooseMonth(e.target.value)}
              error={!valid}
              helperText={valid ? ' ' : 'Choose a month such as 2026-11.'}
              sx={{ width: 220 }}
              slotProps={{ inputLabel: { shrink: true }, htmlInput: { max: latestClosedMonth(), 'data-testid': 'payout-month' } }}
            />
            {month ? <RunPayoutsButton month={month} onRan={set} /> : null}
            {month ? <DownloadRunButton month={month} /> : null}
          </Box>
        </CardContent>
      </Card>
      {month ? (
        <Loaded query={run} loading="Loading the payouts…">
          {(data) => <RunView run={data} onChanged={() => void run.refetch()} />}
        </Loaded>
      ) : null}
    </Box>
  );
}

function RunView({ run, onChanged }: { run: PayoutRun; onChanged: () => void }) {
  const totalsId = useId();
  const tableId = useId();
  // On a phone each payout is a block of its own; from a tablet up, a table row.
  const phone = useMediaQuery((theme: Theme) => theme.breakpoints.down('md'));
  const balanced = run.reconciliation.state === 'balanced';
  return (
    <>
      <Card component="section" aria-labelledby={totalsId}>
        <CardContent sx={{ display: 'flex', flexDirection: 'column', gap: 2 }}>
          <Typography id={totalsId} component="h2" variant="h6">
            Totals and reconciliation
          </Typography>
          <Alert severity={balanced ? 'success' : 'warning'} data-testid="reconciliation" data-state={run.reconciliation.state}>
            {reconciliationText(run)}
            {balanced ? null : (
              <Box component="ul" sx={{ m: 0, mt: 1, pl: 2.5 }}>
                {run.reconciliation.differences.map((d) => (
                  <li key={d}>{d}</li>
                ))}
              </Box>
            )}
          </Alert>
          <Box data-testid="payout-totals">
            <Fields rows={totalsRows(run.totals)} />
          </Box>
        </CardContent>
      </Card>
      <Card component="section" aria-labelledby={tableId}>
        <CardContent>
          <Typography id={tableId} component="h2" variant="h6" sx={{ mb: 1 }}>
            Statements
          </Typography>
          {run.payouts.length === 0 ? (
            <Typography color="text.secondary" data-testid="payouts-empty">
              No statements for {monthLabel(run.month)}. Payouts are made after the month closes.
            </Typography>
          ) : phone ? (
            <Box component="ul" aria-labelledby={tableId} sx={{ listStyle: 'none', m: 0, p: 0, display: 'flex', flexDirection: 'column', gap: 2 }} data-testid="payout-rows">
              {run.payouts.map((p) => (
                <PayoutBlock key={p.statementId} payout={p} onChanged={onChanged} />
              ))}
            </Box>
          ) : (
            // Focusable, so a keyboard can scroll it when the table is wider than the page.
            <TableContainer tabIndex={0} aria-labelledby={tableId}>
              <Table size="small" data-testid="payout-rows">
                <caption style={{ position: 'absolute', width: 1, height: 1, overflow: 'hidden', clip: 'rect(0 0 0 0)' }}>
                  {`Payouts for ${monthLabel(run.month)}: talent, amounts, state, transfer reference and failure`}
                </caption>
                <TableHead sx={{ '& th': { whiteSpace: 'nowrap' } }}>
                  <TableRow>
                    <TableCell scope="col">Talent</TableCell>
                    <TableCell scope="col" align="right">
                      Statement
                    </TableCell>
                    <TableCell scope="col" align="right">
                      Carried in
                    </TableCell>
                    <TableCell scope="col" align="right">
                      Amount
                    </TableCell>
                    <TableCell scope="col">State</TableCell>
                    <TableCell scope="col">Reference</TableCell>
                    <TableCell scope="col">Notes</TableCell>
                    <TableCell scope="col" align="right">
                      <Box component="span" sx={{ position: 'absolute', width: '1px', height: '1px', overflow: 'hidden', clip: 'rect(0 0 0 0)' }}>
                        Actions
                      </Box>
                    </TableCell>
                  </TableRow>
                </TableHead>
                <TableBody>
                  {run.payouts.map((p) => (
                    <PayoutRow key={p.statementId} payout={p} onChanged={onChanged} />
                  ))}
                </TableBody>
              </Table>
            </TableContainer>
          )}
        </CardContent>
      </Card>
    </>
  );
}

function PayoutRow({ payout: p, onChanged }: { payout: StatementPayout; onChanged: () => void }) {
  return (
    <TableRow data-testid="payout-row" data-statement={p.statementId} data-state={p.state}>
      <TableCell component="th" scope="row">
        <NameCell name={p.talentName ?? p.talentId} caption={p.statementId} />
      </TableCell>
      <TableCell align="right">{usd(p.statementCents)}</TableCell>
      <TableCell align="right">{usd(p.carriedInCents)}</TableCell>
      <TableCell align="right" sx={{ fontWeight: 600 }}>
        {usd(p.amountCents)}
      </TableCell>
      <TableCell>
        <Chip size="small" label={PAYOUT_STATE_LABELS[p.state]} sx={{ ...PAYOUT_STATE_STYLES[p.state], fontWeight: 600 }} data-testid="payout-state" />
      </TableCell>
      <TableCell sx={{ fontFamily: 'monospace', overflowWrap: 'anywhere' }} data-testid="payout-reference">
        {referenceOf(p) || '—'}
      </TableCell>
      <TableCell sx={{ minWidth: 220, maxWidth: 320 }} data-testid="payout-note">
        {noteText(p)}
        <PayoutActionLines payout={p} spaced={Boolean(noteText(p))} />
      </TableCell>
      <TableCell align="right">
        <PayoutActions payout={p} onChanged={onChanged} />
      </TableCell>
    </TableRow>
  );
}

/** A payout on a phone: the talent, the state, the amounts, the reference and notes, the actions. */
function PayoutBlock({ payout: p, onChanged }: { payout: StatementPayout; onChanged: () => void }) {
  return (
    <Box component="li" sx={{ borderTop: 1, borderColor: 'divider', pt: 1.5, display: 'flex', flexDirection: 'column', gap: 1 }} data-testid="payout-row" data-statement={p.statementId} data-state={p.state}>
      <Box sx={{ display: 'flex', justifyContent: 'space-between', gap: 1, alignItems: 'flex-start' }}>
        <NameCell name={p.talentName ?? p.talentId} caption={p.statementId} />
        <Chip size="small" label={PAYOUT_STATE_LABELS[p.state]} sx={{ ...PAYOUT_STATE_STYLES[p.state], fontWeight: 600 }} data-testid="payout-state" />
      </Box>
      <Fields
        rows={[
          ['Statement', usd(p.statementCents)],
          ['Carried in', usd(p.carriedInCents)],
          ['Amount', usd(p.amountCents)],
          ['Reference', <span key="ref" data-testid="payout-reference">{referenceOf(p) || '—'}</span>],
          ['Notes', noteText(p) || '—'],
          ...(p.actions?.length ? [['Who and when', <PayoutActionLines key="actions" payout={p} />] as [string, ReactNode]] : []),
        ]}
      />
      <PayoutActions payout={p} onChanged={onChanged} />
    </Box>
  );
}

/** The notes of a payout with its attempts: "The transfer failed. (2 attempts)", or "2 attempts" alone. */
function noteText(p: StatementPayout): string {
  const note = noteOf(p);
  const attempts = p.attempts && p.attempts > 1 ? `${p.attempts} attempts` : '';
  return note && attempts ? `${note} (${attempts})` : note || attempts;
}

/** Who acted on the payout and when, oldest first ("Retried by ana@humanly.example on 28 Nov 2026, 14:03"). */
function PayoutActionLines({ payout: p, spaced = false }: { payout: StatementPayout; spaced?: boolean }) {
  if (!p.actions?.length) return null;
  return (
    <Box component="ul" aria-label={`Admin actions on the payout to ${p.talentName ?? p.talentId}`} sx={{ listStyle: 'none', m: 0, mt: spaced ? 0.75 : 0, p: 0, '& li + li': { mt: 0.25 } }}>
      {p.actions.map((a, i) => (
        <Typography key={`${a.at}-${i}`} component="li" variant="caption" color="text.secondary" sx={{ display: 'block', overflowWrap: 'anywhere' }} data-testid="payout-action" data-action={a.action}>
          {actionText(a)}
        </Typography>
      ))}
    </Box>
  );
}

/** "Run payouts": asks first, then waits for the API (transfers are money); a rerun pays nothing twice. */
function RunPayoutsButton({ month, onRan }: { month: string; onRan: (run: PayoutRun) => void }) {
  const dataProvider = useDataProvider<ConsoleDataProvider>();
  const notify = useNotify();
  const titleId = useId();
  const [open, setOpen] = useState(false);
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const run = async () => {
    setPending(true);
    setError(null);
    try {
      const answer = await dataProvider.runPayouts(month);
      if (!Array.isArray(answer?.data?.payouts)) throw new Error('You do not have access to payouts.');
      const paid = answer.data.payouts.filter((p) => p.state === 'paid').length;
      const failed = answer.data.payouts.filter((p) => p.state === 'failed').length;
      notify(`Payouts for ${monthLabel(month)} ran: ${paid} paid${failed ? `, ${failed} failed` : ''}.`, { type: failed ? 'warning' : 'success' });
      onRan(answer.data);
      setOpen(false);
    } catch (e) {
      setError(errorText(e, 'The payouts could not be run.'));
    } finally {
      setPending(false);
    }
  };
  return (
    <>
      <Button
        variant="contained"
        startIcon={<PlayArrowIcon />}
        onClick={() => {
          setError(null);
          setOpen(true);
        }}
      >
        Run payouts
      </Button>
      <ConfirmDialog
        open={open}
        titleId={titleId}
        title={`Run payouts for ${monthLabel(month)}?`}
        confirm="Run payouts"
        pending={pending}
        onConfirm={run}
        onClose={() => setOpen(false)}
      >
        <DialogContentText>
          Each statement of the month whose amount due reaches the minimum is transferred to its talent&apos;s Stripe account now; smaller amounts carry to the next month. Statements already paid are
          not paid again.
        </DialogContentText>
        {error ? (
          <Alert severity="error" sx={{ mt: 2 }}>
            {error}
          </Alert>
        ) : null}
      </ConfirmDialog>
    </>
  );
}

/** The month's payouts as CSV for accounting. */
function DownloadRunButton({ month }: { month: string }) {
  const dataProvider = useDataProvider<ConsoleDataProvider>();
  const notify = useNotify();
  const [busy, setBusy] = useState(false);
  const download = async () => {
    setBusy(true);
    try {
      const csv = await dataProvider.exportPayoutRunCsv(month);
      if (typeof csv !== 'string') throw new Error('The download was refused.');
      saveFile(payoutRunCsvName(month), new Blob([csv], { type: 'text/csv;charset=utf-8' }));
    } catch (error) {
      notify(`Could not download the payouts. ${errorText(error, '')}`, { type: 'error' });
    } finally {
      setBusy(false);
    }
  };
  return (
    <Button variant="outlined" onClick={download} disabled={busy} startIcon={busy ? <CircularProgress size={16} color="inherit" /> : <DownloadIcon />}>
      Download CSV
    </Button>
  );
}
