import {
  Alert,
  Autocomplete,
  Box,
  Button,
  Card,
  CardContent,
  CircularProgress,
  DialogContentText,
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableRow,
  TextField,
  Typography,
} from '@mui/material';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useId, useState } from 'react';
import { useDataProvider, useNotify } from 'react-admin';
import { Link } from 'react-router';
import type { AdminUserSummary } from '../../../events/accounts';
import type { ExclusiveContract } from '../../../events/generations';
import type { ExclusiveContractRequest, ExclusiveContractResponse } from '../../../events/likeness';
import { ConfirmDialog } from '../common/ConfirmDialog';
import type { ConsoleDataProvider } from '../dataProvider';
import { errorText } from '../common/errorText';
import { Loading, LoadError } from '../common/Loaded';
import { useConsoleQuery } from '../common/useConsoleQuery';

type Field = 'accountId' | 'brandName' | 'startsAt' | 'until';
type FieldErrors = Partial<Record<Field, string>>;

/** The API's `{fields}` of a refused request, else nothing. */
function fieldErrorsOf(e: unknown): FieldErrors {
  const fields = (e as { body?: { fields?: Record<string, string> } } | undefined)?.body?.fields;
  return fields && typeof fields === 'object' ? fields : {};
}

const when = (iso: string) => new Date(iso).toLocaleString('en-GB', { dateStyle: 'medium', timeStyle: 'short' });
/** A datetime-local input's value (the admin's local time) as an ISO instant; undefined when empty or not a date. */
const isoOf = (local: string) => {
  const t = local ? Date.parse(local) : NaN;
  return Number.isNaN(t) ? undefined : new Date(t).toISOString();
};

interface Client {
  id: string;
  label: string;
}

/** Finds client accounts by name or email (the Users resource, clients only) to fill the account id. */
function ClientSearch({ onPick }: { onPick: (client: Client) => void }) {
  const dataProvider = useDataProvider<ConsoleDataProvider>();
  const [input, setInput] = useState('');
  // What was typed, once typing has paused for a moment.
  const [q, setQ] = useState('');
  useEffect(() => {
    const timer = setTimeout(() => setQ(input.trim()), 250);
    return () => clearTimeout(timer);
  }, [input]);
  const search = useQuery({
    queryKey: ['console', 'client-search', q],
    queryFn: () =>
      dataProvider
        .getList<AdminUserSummary & { id: string }>('users', { filter: { q, role: 'client' }, pagination: { page: 1, perPage: 10 }, sort: { field: 'createdAt', order: 'DESC' } })
        .then(({ data }) => data.map((u) => ({ id: u.id, label: `${u.full_name || u.email} (${u.email})` }))),
    enabled: q.length >= 2,
    retry: false,
    refetchOnWindowFocus: false,
  });
  const options = search.data ?? [];
  const loading = search.isFetching;
  return (
    <Autocomplete<Client>
      options={options}
      filterOptions={(o) => o}
      loading={loading}
      inputValue={input}
      onInputChange={(_e, value) => setInput(value)}
      onChange={(_e, value) => value && onPick(value)}
      isOptionEqualToValue={(a, b) => a.id === b.id}
      noOptionsText={input.trim().length < 2 ? 'Type a name or email' : 'No client accounts match'}
      renderInput={(params) => <TextField {...params} label="Find a client account" helperText="By name or email; fills in the account id." />}
      sx={{ maxWidth: 480 }}
    />
  );
}

function ContractFacts({ contract }: { contract: ExclusiveContract }) {
  const rows: Array<[string, React.ReactNode]> = [
    ['Brand', contract.brandName],
    ['Client account', <Link key="a" to={`/users/${encodeURIComponent(contract.accountId)}/show`}>{contract.accountId}</Link>],
    ['Term', `${when(contract.startsAt)} to ${when(contract.until)}`],
    ['Recorded', `by ${contract.recordedBy}, ${when(contract.recordedAt)}`],
    ['Talent told', contract.startNotifiedAt ? when(contract.startNotifiedAt) : 'When it starts'],
  ];
  return (
    <Box component="dl" sx={{ display: 'grid', gridTemplateColumns: 'max-content 1fr', columnGap: 2, rowGap: 0.5, m: 0 }}>
      {rows.map(([k, v]) => (
        <Box key={k} sx={{ display: 'contents' }}>
          <Typography component="dt" variant="body2" color="text.secondary">
            {k}
          </Typography>
          <Typography component="dd" variant="body2" sx={{ m: 0, overflowWrap: 'anywhere' }}>
            {v}
          </Typography>
        </Box>
      ))}
    </Box>
  );
}

/**
 * A talent's exclusive contract (docs/royalties.md#exclusive-contracts): the contract
 * in force or starting, a form to record one (a client account, the brand's name, the term), "End
 * contract now" with a confirmation, and the ended contracts. The API checks everything; its
 * messages show on the fields.
 */
export function ExclusiveContractSection({ talentId }: { talentId: string }) {
  const dataProvider = useDataProvider<ConsoleDataProvider>();
  const notify = useNotify();
  const titleId = useId();
  const queryClient = useQueryClient();
  const contract = useConsoleQuery({
    queryKey: ['exclusive-contract', talentId],
    read: () => dataProvider.getExclusiveContract(talentId),
    isAnswer: (data) => Array.isArray(data.history),
    forbidden: 'You do not have access to this.',
    failed: 'The exclusive contract could not be loaded.',
  });
  const state = contract.data;
  // When the answer came (whether a contract has started is read against it, not during render).
  const asOf = contract.dataUpdatedAt;
  const setState = (answer: ExclusiveContractResponse) => queryClient.setQueryData(['console', 'exclusive-contract', talentId], answer);
  const [form, setForm] = useState({ accountId: '', brandName: '', startsAt: '', until: '' });
  const [errors, setErrors] = useState<FieldErrors>({});
  const [formError, setFormError] = useState<string | null>(null);
  const [pending, setPending] = useState(false);
  const [confirming, setConfirming] = useState(false);


  const record = async () => {
    const local: FieldErrors = {};
    if (!form.accountId.trim()) local.accountId = 'Choose the brand’s client account.';
    if (!form.brandName.trim()) local.brandName = 'Enter the brand’s name.';
    if (!isoOf(form.until)) local.until = 'Choose when the contract ends.';
    if (form.startsAt && !isoOf(form.startsAt)) local.startsAt = 'Choose a valid start, or leave it empty to start now.';
    setErrors(local);
    setFormError(null);
    if (Object.keys(local).length) return;
    const request: ExclusiveContractRequest = { accountId: form.accountId.trim(), brandName: form.brandName.trim(), until: isoOf(form.until)!, ...(isoOf(form.startsAt) ? { startsAt: isoOf(form.startsAt) } : {}) };
    setPending(true);
    try {
      const { data } = await dataProvider.recordExclusiveContract(talentId, request);
      setState(data);
      setForm({ accountId: '', brandName: '', startsAt: '', until: '' });
      notify('Exclusive contract recorded.', { type: 'success' });
    } catch (e) {
      const fields = fieldErrorsOf(e);
      setErrors(fields);
      if (!Object.keys(fields).some((f) => ['accountId', 'brandName', 'startsAt', 'until'].includes(f))) setFormError(errorText(e, 'The contract could not be recorded.'));
    } finally {
      setPending(false);
    }
  };

  const end = async () => {
    setConfirming(false);
    setPending(true);
    setFormError(null);
    try {
      const { data } = await dataProvider.endExclusiveContract(talentId);
      setState(data);
      notify('Exclusive contract ended.', { type: 'success' });
    } catch (e) {
      setFormError(errorText(e, 'The contract could not be ended.'));
    } finally {
      setPending(false);
    }
  };

  const current = state?.current;
  return (
    <Card component="section" aria-labelledby={titleId} sx={{ mt: 2 }} data-testid="exclusive-contract-section">
      <CardContent sx={{ display: 'flex', flexDirection: 'column', gap: 2, maxWidth: 860, boxSizing: 'border-box' }}>
        <Box>
          <Typography id={titleId} component="h2" variant="h6">
            Exclusive contract
          </Typography>
          <Typography variant="body2" color="text.secondary">
            While a contract is in force only the brand can generate with this talent, the talent is hidden from the public library, and they cannot
            request removal. It lifts by itself at the end of the term.
          </Typography>
        </Box>
        {contract.isError && !contract.isFetching ? (
          <LoadError message={contract.message} onRetry={() => void contract.refetch()} />
        ) : !state ? (
          <Loading>Loading the exclusive contract…</Loading>
        ) : (
          <>
            {current ? (
              <>
                <Alert severity="info">
                  {Date.parse(current.startsAt) > asOf ? 'A contract starts on ' + when(current.startsAt) + '.' : 'A contract is in force until ' + when(current.until) + '.'}
                </Alert>
                <ContractFacts contract={current} />
                <Box>
                  <Button variant="outlined" color="error" onClick={() => setConfirming(true)} disabled={pending}>
                    End contract now
                  </Button>
                </Box>
              </>
            ) : (
              <Box component="form" noValidate aria-label="Record an exclusive contract" onSubmit={(e) => (e.preventDefault(), void record())} sx={{ display: 'flex', flexDirection: 'column', gap: 2 }}>
                <Typography variant="body2">No contract in force. Record one:</Typography>
                <ClientSearch onPick={(c) => setForm((f) => ({ ...f, accountId: c.id }))} />
                <TextField
                  label="Client account id"
                  required
                  value={form.accountId}
                  onChange={(e) => setForm({ ...form, accountId: e.target.value })}
                  error={!!errors.accountId}
                  helperText={errors.accountId ?? 'The brand’s client account (from Users).'}
                  slotProps={{ htmlInput: { spellCheck: false, autoCapitalize: 'off' } }}
                  sx={{ maxWidth: 480 }}
                />
                <TextField
                  label="Brand name"
                  required
                  value={form.brandName}
                  onChange={(e) => setForm({ ...form, brandName: e.target.value })}
                  error={!!errors.brandName}
                  helperText={errors.brandName ?? 'As the talent will see it.'}
                  slotProps={{ htmlInput: { maxLength: 100 } }}
                  sx={{ maxWidth: 480 }}
                />
                <Box sx={{ display: 'flex', gap: 2, flexWrap: 'wrap' }}>
                  <TextField
                    label="Starts"
                    type="datetime-local"
                    value={form.startsAt}
                    onChange={(e) => setForm({ ...form, startsAt: e.target.value })}
                    error={!!errors.startsAt}
                    helperText={errors.startsAt ?? 'Your local time; empty starts it now.'}
                    slotProps={{ inputLabel: { shrink: true } }}
                  />
                  <TextField
                    label="Ends"
                    type="datetime-local"
                    required
                    value={form.until}
                    onChange={(e) => setForm({ ...form, until: e.target.value })}
                    error={!!errors.until}
                    helperText={errors.until ?? 'Your local time.'}
                    slotProps={{ inputLabel: { shrink: true } }}
                  />
                </Box>
                <Box>
                  <Button type="submit" variant="contained" disabled={pending} startIcon={pending ? <CircularProgress size={16} color="inherit" /> : undefined}>
                    Record contract
                  </Button>
                </Box>
              </Box>
            )}
            {formError ? <Alert severity="error">{formError}</Alert> : null}
            <Typography component="h3" variant="subtitle1">
              Ended contracts
            </Typography>
            {state.history.length === 0 ? (
              <Typography variant="body2" color="text.secondary">
                None.
              </Typography>
            ) : (
              <Table size="small" aria-label="Ended contracts">
                <TableHead>
                  <TableRow>
                    <TableCell>Brand</TableCell>
                    <TableCell>Term</TableCell>
                    <TableCell>Recorded</TableCell>
                    <TableCell>Ended</TableCell>
                  </TableRow>
                </TableHead>
                <TableBody>
                  {state.history.map((h) => (
                    <TableRow key={h.id}>
                      <TableCell>{h.brandName}</TableCell>
                      <TableCell>
                        {when(h.startsAt)} to {when(h.until)}
                      </TableCell>
                      <TableCell>
                        {h.recordedBy}, {when(h.recordedAt)}
                      </TableCell>
                      <TableCell>
                        {h.endedBy === 'term ended' ? 'Term ended' : `By ${h.endedBy}`}, {when(h.endedAt)}
                      </TableCell>
                    </TableRow>
                  ))}
                </TableBody>
              </Table>
            )}
          </>
        )}
      </CardContent>
      <ConfirmDialog
        open={confirming}
        titleId={`${titleId}-confirm`}
        title="End the contract now?"
        cancel="Keep it"
        confirm="End contract now"
        onConfirm={() => void end()}
        onClose={() => setConfirming(false)}
      >
        <DialogContentText>
          {current ? `${current.brandName} loses exclusivity at once: the talent returns to the library, every client can generate with them, and they are emailed.` : ''}
        </DialogContentText>
      </ConfirmDialog>
    </Card>
  );
}
