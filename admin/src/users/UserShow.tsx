import { Alert, Box, Chip, Stack, Table, TableBody, TableCell, TableHead, TableRow, Typography } from '@mui/material';
import { ListButton, Loading, ShowBase, Title, useShowContext } from 'react-admin';
import type { AdminUserDetail } from '../../../events/accounts';
import { BillingSection } from '../billing/BillingSection';
import { flagText } from '../billing/labels';
import { useUserBilling } from '../billing/useUserBilling';
import { Fields, Section } from '../common/DetailSection';
import { formatDateTime } from '../common/format';
import { AUDIT_ACTION_LABELS, LEDGER_KIND_LABELS, planName, ROLE_LABELS, signed } from './labels';
import { AccountStateButton, GrantCreditsButton, PlanControl, PlanRequestControl } from './UserActions';

/** One account: profile, plan, credits, access, a pending plan request, billing, the ledger and the audit trail. */
export function UserShow() {
  return (
    <ShowBase queryOptions={{ refetchOnWindowFocus: false }}>
      <UserPage />
    </ShowBase>
  );
}



function UserPage() {
  const { record, isPending, error, refetch } = useShowContext<AdminUserDetail>();
  const billing = useUserBilling(record?.id ?? '', record?.role === 'client');
  if (isPending) return <Loading />;
  if (error || !record) return <Alert severity="error">This account could not be loaded.</Alert>;
  // Until getOne answers, react-admin shows the list's summary of the record: no ledger or audit yet.
  const detailLoaded = Array.isArray(record.audit);
  const changed = () => void refetch();
  const isClient = record.role === 'client';

  return (
    <Stack spacing={2} sx={{ mt: 2, mb: 4 }}>
      <Title title={record.email} />
      <Box sx={{ display: 'flex', alignItems: 'center', gap: 2, flexWrap: 'wrap' }}>
        <Box sx={{ flex: 1, minWidth: 280 }}>
          <Box sx={{ display: 'flex', alignItems: 'center', gap: 1.5, flexWrap: 'wrap' }}>
            <Typography component="h1" variant="h5" sx={{ fontWeight: 600, overflowWrap: 'anywhere' }}>
              {record.email}
            </Typography>
            <Chip size="small" variant="outlined" label={ROLE_LABELS[record.role] ?? record.role} />
            {record.disabled ? <Chip size="small" color="error" label="Disabled" /> : null}
            {billing.data && billing.data.spentRefundedCredits > 0 ? (
              <Chip size="small" color="error" variant="outlined" label={`Spent refunded credits: ${billing.data.spentRefundedCredits}`} title={flagText(billing.data.spentRefundedCredits)} data-testid="refund-flag" />
            ) : null}
          </Box>
          <Typography variant="body2" color="text.secondary">
            {record.full_name || 'No name'} · created {formatDateTime(record.createdAt)} · {record.id}
          </Typography>
        </Box>
        {detailLoaded ? <AccountStateButton user={record} onChanged={changed} /> : null}
        <ListButton label="All users" />
      </Box>

      {record.planRequest && detailLoaded ? (
        <Alert severity="warning" action={<PlanRequestControl user={record} onChanged={changed} />}>
          Asks to move from {planName(record.plan)} to {planName(record.planRequest.plan)} (requested {formatDateTime(record.planRequest.requestedAt)}).
        </Alert>
      ) : null}

      <Box sx={{ display: 'grid', gridTemplateColumns: { xs: '1fr', md: '1fr 1fr' }, gap: 2, alignItems: 'start' }}>
        <Section title="Profile" id="profile-title">
          <Fields
            rows={[
              ['Name', record.full_name],
              ['Email', record.email],
              ['Role', ROLE_LABELS[record.role] ?? record.role],
              ['Access', record.disabled ? 'Disabled: cannot sign in' : 'Active'],
              ['Created', formatDateTime(record.createdAt)],
            ]}
          />
        </Section>
        {isClient ? (
          <Section title="Plan and credits" id="plan-title" action={detailLoaded ? <GrantCreditsButton user={record} onChanged={changed} /> : undefined}>
            <Fields
              rows={[
                ['Plan', planName(record.plan)],
                ['Credit balance', <span data-testid="credit-balance">{record.balance ?? 0}</span>],
              ]}
            />
            {detailLoaded ? (
              <Box sx={{ mt: 2 }}>
                <PlanControl key={record.plan} user={record} onChanged={changed} />
              </Box>
            ) : null}
          </Section>
        ) : (
          <Section title="Plan and credits" id="plan-title">
            <Typography variant="body2" color="text.secondary">
              Talent accounts have no plan and no credits.
            </Typography>
          </Section>
        )}
      </Box>

      {isClient ? (
        <BillingSection
          billing={billing}
          // A refund's credits come back with Stripe's event: the balance and ledger are read again too.
          onRefunded={() => {
            void billing.refetch();
            changed();
          }}
        />
      ) : null}

      {isClient ? (
        <Section title="Credit ledger" id="ledger-title">
          {record.ledger?.length ? (
            <Box sx={{ overflowX: 'auto' }}>
              <Table size="small" aria-labelledby="ledger-title">
                <TableHead>
                  <TableRow>
                    <TableCell>Date</TableCell>
                    <TableCell>Kind</TableCell>
                    <TableCell align="right">Change</TableCell>
                    <TableCell align="right">Balance after</TableCell>
                    <TableCell>Reason</TableCell>
                    <TableCell>By</TableCell>
                  </TableRow>
                </TableHead>
                <TableBody>
                  {record.ledger.map((e) => (
                    <TableRow key={e.id}>
                      <TableCell sx={{ whiteSpace: 'nowrap' }}>{formatDateTime(e.at)}</TableCell>
                      <TableCell>{LEDGER_KIND_LABELS[e.kind] ?? e.kind}</TableCell>
                      <TableCell align="right">{signed(e.credits)}</TableCell>
                      <TableCell align="right">{e.balanceAfter}</TableCell>
                      <TableCell sx={{ overflowWrap: 'anywhere' }}>{e.reason}</TableCell>
                      <TableCell sx={{ overflowWrap: 'anywhere' }}>{e.by ?? '—'}</TableCell>
                    </TableRow>
                  ))}
                </TableBody>
              </Table>
            </Box>
          ) : (
            <Typography color="text.secondary">{detailLoaded ? 'No ledger entries.' : 'Loading…'}</Typography>
          )}
        </Section>
      ) : null}

      <Section title="Audit trail" id="audit-title">
        {record.audit?.length ? (
          <Box sx={{ overflowX: 'auto' }}>
            <Table size="small" aria-labelledby="audit-title">
              <TableHead>
                <TableRow>
                  <TableCell>When</TableCell>
                  <TableCell>Who</TableCell>
                  <TableCell>What</TableCell>
                  <TableCell>Detail</TableCell>
                </TableRow>
              </TableHead>
              <TableBody>
                {record.audit.map((a, i) => (
                  <TableRow key={`${a.at}-${i}`}>
                    <TableCell sx={{ whiteSpace: 'nowrap' }}>{formatDateTime(a.at)}</TableCell>
                    <TableCell sx={{ overflowWrap: 'anywhere' }}>{a.by}</TableCell>
                    <TableCell>{AUDIT_ACTION_LABELS[a.action] ?? a.action}</TableCell>
                    <TableCell sx={{ overflowWrap: 'anywhere' }}>{a.detail}</TableCell>
                  </TableRow>
                ))}
              </TableBody>
            </Table>
          </Box>
        ) : (
          <Typography color="text.secondary">{detailLoaded ? 'No admin has changed this account.' : 'Loading…'}</Typography>
        )}
      </Section>
    </Stack>
  );
}
