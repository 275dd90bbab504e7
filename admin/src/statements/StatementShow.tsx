import { Alert, Box, Button, Stack, Table, TableBody, TableCell, TableContainer, TableHead, TableRow, Typography } from '@mui/material';
import { ListButton, Loading, ShowBase, Title, useShowContext } from 'react-admin';
import { dollarsOfCents, dollarsOfMicros, dollarsOfMicrosToCent, lineTierLabel, percentOfBps } from '../../../events/royalty-format';
import type { ReactNode } from 'react';
import type { AdminStatement, PromotionalTotal } from '../../../events/royalties';
import { NOTHING_DUE_MESSAGE, noRoyaltyNote, PROMOTIONAL_LABEL, TIER_LABELS } from '../../../events/royalty-values';
import { Fields, Section } from '../common/DetailSection';
import { formatDateTime } from '../common/format';
import { monthLabel } from './labels';
import { PayoutChip } from './PayoutChip';

/**
 * One statement: its figures by tier, promotional credits with the cap and its cut, licenses that
 * earn nothing (counted), carried in and out, the payout and who changed it, and every license.
 */
export function StatementShow() {
  return (
    <ShowBase queryOptions={{ refetchOnWindowFocus: false }}>
      <StatementPage />
    </ShowBase>
  );
}

/** The promotional section in a line: what its licenses earned, the cap, and what the cap cut. */
function promotionalFigure(p: PromotionalTotal): [string, ReactNode] {
  return [
    PROMOTIONAL_LABEL,
    <span data-testid="statement-promotional">
      {`${p.licenses} ${p.licenses === 1 ? 'license' : 'licenses'} earned $${dollarsOfMicros(p.earnedMicros)}; cap $${dollarsOfMicrosToCent(p.capMicros)} a month, cut $${dollarsOfMicros(p.cutMicros)}`}
    </span>,
  ];
}

function StatementPage() {
  const { record, isPending, error } = useShowContext<AdminStatement>();
  if (isPending) return <Loading />;
  if (error || !record) return <Alert severity="error">This statement could not be loaded.</Alert>;
  // Until getOne answers, react-admin may show the list's copy (no lines, no audit).
  const lines = record.lines ?? [];
  const audit = record.audit ?? [];
  // The list's summary stands in until the statement itself is read: it has no lines.
  const takenBack = record.takenBack ?? [];
  const t = record.totals;

  return (
    <Stack spacing={2} sx={{ mt: 2, mb: 4 }}>
      <Title title={`Statement ${record.id}`} />
      <Box sx={{ display: 'flex', alignItems: 'center', gap: 2, flexWrap: 'wrap' }}>
        <Box sx={{ flex: 1, minWidth: 280 }}>
          <Box sx={{ display: 'flex', alignItems: 'center', gap: 1.5, flexWrap: 'wrap' }}>
            <Typography component="h1" variant="h5" sx={{ fontWeight: 600 }}>
              {record.talentName} · {monthLabel(record.month)}
            </Typography>
            <PayoutChip status={record.payout.status} />
          </Box>
          <Typography variant="body2" color="text.secondary">
            {record.talentId} · closed {formatDateTime(record.closedAt)} · {record.id}
          </Typography>
        </Box>
        <ListButton label="All statements" />
      </Box>

      <Box sx={{ display: 'grid', gridTemplateColumns: { xs: '1fr', md: '1fr 1fr' }, gap: 2, alignItems: 'start' }}>
        <Section title="Figures" id="figures-title">
          <Fields
            rows={[
              ['Licenses', t.licenses.toLocaleString('en')],
              ['Credit value', `$${dollarsOfMicros(t.grossMicros)}`],
              ...(t.promotional ? [promotionalFigure(t.promotional)] : []),
              ...(t.noRoyaltyLicenses ? [['No royalty', <span data-testid="statement-no-royalty">{noRoyaltyNote(t.noRoyaltyLicenses)}</span>] as [string, ReactNode]] : []),
              ['Royalty of the lines', `$${dollarsOfMicros(t.royaltyMicros)}`],
              ['Carried in', `$${dollarsOfMicros(t.carriedInMicros)}`],
              ...(t.takenBack
                ? ([
                    ['Taken back (refunds, licenses revoked for a breach)', <span data-testid="statement-taken-back">{`−$${dollarsOfMicros(t.takenBack.appliedMicros)} of $${dollarsOfMicros(t.takenBack.owedMicros)} (${t.takenBack.licenses} ${t.takenBack.licenses === 1 ? 'license' : 'licenses'})`}</span>],
                    ['Absorbed by Humanly', <span data-testid="statement-absorbed">${dollarsOfMicros(t.takenBack.absorbedMicros)}</span>],
                  ] as Array<[string, ReactNode]>)
                : []),
              ...(t.givenBack
                ? ([
                    ['Given back (licenses reinstated on appeal)', <span data-testid="statement-given-back">{`$${dollarsOfMicros(t.givenBack.royaltyMicros)} (${t.givenBack.licenses} ${t.givenBack.licenses === 1 ? 'license' : 'licenses'})`}</span>],
                  ] as Array<[string, ReactNode]>)
                : []),
              ['Paid (whole cents)', <strong data-testid="statement-amount">${dollarsOfCents(t.royaltyCents)}</strong>],
              ['Carried out', `$${dollarsOfMicros(t.carriedOutMicros)}`],
            ]}
          />
        </Section>
        <Section
          title="Payout"
          id="payout-title"
          action={
            <Button component="a" href={`#/payout-runs?month=${encodeURIComponent(record.month)}`} size="small" variant="outlined" data-testid="payout-run-link">
              Payout run of {monthLabel(record.month)}
            </Button>
          }
        >
          <Fields
            rows={[
              ['Status', <PayoutChip status={record.payout.status} />],
              ['Paid on', record.payout.paidAt ? formatDateTime(record.payout.paidAt) : ''],
              ['Reference', <span data-testid="payout-reference">{record.payout.reference ?? ''}</span>],
            ]}
          />
          {record.payout.status === 'nothing-due' ? (
            <Typography variant="body2" color="text.secondary" data-testid="nothing-due" sx={{ mt: 1 }}>
              {NOTHING_DUE_MESSAGE}
            </Typography>
          ) : (
            <Typography variant="body2" color="text.secondary" sx={{ mt: 1 }}>
              Paid by the month's payout run through Stripe; a payment outside Stripe is recorded there, with a reason.
            </Typography>
          )}
        </Section>
      </Box>

      <Section title="Tiers" id="tiers-title">
        <TableContainer>
          <Table size="small" aria-labelledby="tiers-title">
            <TableHead>
              <TableRow>
                <TableCell>Tier</TableCell>
                <TableCell align="right">Licenses</TableCell>
                <TableCell align="right">Credit value</TableCell>
                <TableCell align="right">Royalty</TableCell>
              </TableRow>
            </TableHead>
            <TableBody>
              {t.tiers.map((tier) => (
                <TableRow key={tier.tier}>
                  <TableCell>{TIER_LABELS[tier.tier]}</TableCell>
                  <TableCell align="right">{tier.licenses}</TableCell>
                  <TableCell align="right">${dollarsOfMicros(tier.grossMicros)}</TableCell>
                  <TableCell align="right">${dollarsOfMicros(tier.royaltyMicros)}</TableCell>
                </TableRow>
              ))}
              {t.promotional ? (
                <TableRow>
                  <TableCell>
                    {PROMOTIONAL_LABEL} (cap ${dollarsOfMicrosToCent(t.promotional.capMicros)} a month)
                  </TableCell>
                  <TableCell align="right">{t.promotional.licenses}</TableCell>
                  <TableCell align="right">${dollarsOfMicros(t.promotional.grossMicros)}</TableCell>
                  <TableCell align="right">${dollarsOfMicros(t.promotional.earnedMicros)}</TableCell>
                </TableRow>
              ) : null}
              {t.promotional && t.promotional.cutMicros > 0 ? (
                <TableRow>
                  <TableCell>Cut by the promotional cap</TableCell>
                  <TableCell />
                  <TableCell />
                  <TableCell align="right">−${dollarsOfMicros(t.promotional.cutMicros)}</TableCell>
                </TableRow>
              ) : null}
              {t.tiers.length === 0 && !t.promotional ? (
                <TableRow>
                  <TableCell colSpan={4}>No license this month.</TableCell>
                </TableRow>
              ) : null}
            </TableBody>
          </Table>
        </TableContainer>
      </Section>

      {takenBack.length > 0 ? (
        <Section title="Royalties taken back" id="taken-back-title">
          <Typography variant="body2" color="text.secondary" sx={{ mb: 1 }}>
            Licenses whose client payment was refunded or lost in a dispute after their royalty was counted. They come off this statement, never below zero; Humanly absorbs the rest.
          </Typography>
          <TableContainer>
            <Table size="small" aria-labelledby="taken-back-title">
              <TableHead>
                <TableRow>
                  <TableCell>Taken back</TableCell>
                  <TableCell>License</TableCell>
                  <TableCell>Counted on</TableCell>
                  <TableCell>Why</TableCell>
                  <TableCell align="right">Royalty</TableCell>
                </TableRow>
              </TableHead>
              <TableBody>
                {takenBack.map((b) => (
                  <TableRow key={b.licenseId} data-testid="statement-taken-back-line">
                    <TableCell>{formatDateTime(b.at)}</TableCell>
                    <TableCell sx={{ fontFamily: 'monospace' }}>{b.licenseId}</TableCell>
                    <TableCell>{monthLabel(b.statementMonth)}</TableCell>
                    <TableCell>{b.reason}</TableCell>
                    <TableCell align="right">−${dollarsOfMicros(b.royaltyMicros)}</TableCell>
                  </TableRow>
                ))}
              </TableBody>
            </Table>
          </TableContainer>
        </Section>
      ) : null}

      <Section title="Payout changes" id="audit-title">
        {audit.length ? (
          <Box component="ol" aria-labelledby="audit-title" sx={{ m: 0, pl: 3 }}>
            {audit.map((a, i) => (
              <li key={`${a.at}-${i}`} data-testid="statement-audit">
                <Typography variant="body2">
                  <strong>{a.action === 'marked-paid' ? 'Marked paid' : 'Marked unpaid'}</strong> by {a.by} on {formatDateTime(a.at)}: {a.detail}
                </Typography>
              </li>
            ))}
          </Box>
        ) : (
          <Typography color="text.secondary">No payout change yet.</Typography>
        )}
      </Section>

      <Section title="Licenses" id="lines-title">
        <TableContainer>
          <Table size="small" aria-labelledby="lines-title">
            <TableHead>
              <TableRow>
                <TableCell>#</TableCell>
                <TableCell>Issued</TableCell>
                <TableCell>License</TableCell>
                <TableCell>Tier</TableCell>
                <TableCell align="right">Rate</TableCell>
                <TableCell align="right">Credit value</TableCell>
                <TableCell align="right">Royalty</TableCell>
              </TableRow>
            </TableHead>
            <TableBody>
              {lines.map((l, i) => (
                <TableRow key={l.licenseId} data-testid="statement-line">
                  <TableCell>{l.promotional ? '—' : (l.ordinal ?? i + 1)}</TableCell>
                  <TableCell>{formatDateTime(l.at)}</TableCell>
                  <TableCell sx={{ overflowWrap: 'anywhere' }}>{l.licenseId}</TableCell>
                  <TableCell>{lineTierLabel(l)}</TableCell>
                  <TableCell align="right">{percentOfBps(l.rateBps)}%</TableCell>
                  <TableCell align="right">${dollarsOfMicros(l.creditValueMicros)}</TableCell>
                  <TableCell align="right">${dollarsOfMicros(l.royaltyMicros)}</TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        </TableContainer>
      </Section>
    </Stack>
  );
}
