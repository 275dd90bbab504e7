import { Alert, Box, Button, Chip, Link, Table, TableBody, TableCell, TableHead, TableRow, Typography } from '@mui/material';
import { Fields, Section } from '../common/DetailSection';
import { formatDateTime } from '../common/format';
import { planName } from '../users/labels';
import { flagText, money, PAYMENT_STATUS_COLORS, PAYMENT_STATUS_LABELS, refundable, SUBSCRIPTION_STATE_LABELS } from './labels';
import { RefundButton } from './RefundButton';
import type { useUserBilling } from './useUserBilling';

/**
 * A client's billing on their page: the subscription as Stripe last said, every payment with its
 * refunds and the credits taken back (and those already spent), Stripe's receipts, and a refund
 * per payment.
 */
export function BillingSection({ billing }: { billing: ReturnType<typeof useUserBilling> }) {
  return (
    <Section
      title="Billing"
      id="billing-title"
      action={
        billing.status === 'ready' && billing.billing.customerId ? (
          <Typography variant="body2" color="text.secondary" sx={{ overflowWrap: 'anywhere' }}>
            Stripe customer {billing.billing.customerId}
          </Typography>
        ) : undefined
      }
    >
      {billing.status === 'loading' ? (
        <Typography color="text.secondary">Loading…</Typography>
      ) : billing.status === 'error' ? (
        <Alert
          severity="error"
          action={
            <Button color="inherit" size="small" onClick={billing.reload}>
              Retry
            </Button>
          }
        >
          {billing.message}
        </Alert>
      ) : (
        <Box sx={{ display: 'flex', flexDirection: 'column', gap: 2 }}>
          {billing.billing.spentRefundedCredits > 0 ? (
            <Alert severity="warning" data-testid="billing-flag">
              {flagText(billing.billing.spentRefundedCredits)}
            </Alert>
          ) : null}
          {billing.billing.subscription ? (
            <Fields
              rows={[
                ['Subscription', `${planName(billing.billing.subscription.plan)} plan`],
                ['State', SUBSCRIPTION_STATE_LABELS[billing.billing.subscription.state]],
                [billing.billing.subscription.state === 'canceling' || billing.billing.subscription.state === 'ended' ? 'Ends' : 'Renews', formatDateTime(billing.billing.subscription.currentPeriodEnd)],
                ...(billing.billing.subscription.scheduledPlan ? [['Then', `${planName(billing.billing.subscription.scheduledPlan)} plan`] as [string, string]] : []),
              ]}
            />
          ) : (
            <Typography variant="body2" color="text.secondary">
              No subscription through Stripe.
            </Typography>
          )}
          {billing.billing.payments.length ? (
            <Box sx={{ overflowX: 'auto' }}>
              <Table size="small" aria-labelledby="billing-title">
                <TableHead>
                  <TableRow>
                    <TableCell>Date</TableCell>
                    <TableCell>Payment</TableCell>
                    <TableCell align="right">Amount</TableCell>
                    <TableCell align="right">Refunded</TableCell>
                    <TableCell>Status</TableCell>
                    <TableCell align="right">Credits</TableCell>
                    <TableCell align="right">Taken back</TableCell>
                    <TableCell>Receipt</TableCell>
                    <TableCell>
                      <Box component="span" sx={{ position: 'absolute', width: '1px', height: '1px', overflow: 'hidden', clip: 'rect(0 0 0 0)' }}>
                        Actions
                      </Box>
                    </TableCell>
                  </TableRow>
                </TableHead>
                <TableBody>
                  {billing.billing.payments.map((p) => (
                    <TableRow key={p.id} data-testid={`payment-${p.id}`}>
                      <TableCell sx={{ whiteSpace: 'nowrap' }}>{formatDateTime(p.at)}</TableCell>
                      <TableCell sx={{ overflowWrap: 'anywhere' }}>{p.description}</TableCell>
                      <TableCell align="right">{money(p.amountCents)}</TableCell>
                      <TableCell align="right">
                        {p.refundedCents ? money(p.refundedCents) : '—'}
                        {p.refunds?.map((r) => (
                          <Typography key={`${r.at}-${r.amountCents}`} component="span" variant="body2" color="text.secondary" sx={{ display: 'block', overflowWrap: 'anywhere', textAlign: 'left', minWidth: 220 }} data-testid="payment-refund">
                            Refunded {money(r.amountCents)} by {r.by} on {formatDateTime(r.at)}: {r.reason}
                          </Typography>
                        ))}
                      </TableCell>
                      <TableCell>
                        <Chip size="small" color={PAYMENT_STATUS_COLORS[p.status]} label={PAYMENT_STATUS_LABELS[p.status]} />
                      </TableCell>
                      <TableCell align="right">{p.credits}</TableCell>
                      <TableCell align="right">
                        {p.creditsTakenBack || p.creditsShortfall ? (
                          <>
                            {p.creditsTakenBack}
                            {p.creditsShortfall ? (
                              <Typography component="span" variant="body2" color="error" sx={{ display: 'block' }}>
                                {p.creditsShortfall} already spent
                              </Typography>
                            ) : null}
                          </>
                        ) : (
                          '—'
                        )}
                      </TableCell>
                      <TableCell>
                        {p.receiptUrl ? (
                          <Link href={p.receiptUrl} target="_blank" rel="noreferrer">
                            {p.status === 'open' || p.status === 'failed' ? 'Invoice' : 'Receipt'}
                          </Link>
                        ) : (
                          '—'
                        )}
                      </TableCell>
                      <TableCell>{refundable(p) ? <RefundButton payment={p} onRefunded={billing.reload} /> : null}</TableCell>
                    </TableRow>
                  ))}
                </TableBody>
              </Table>
            </Box>
          ) : (
            <Typography variant="body2" color="text.secondary">
              No payments yet.
            </Typography>
          )}
        </Box>
      )}
    </Section>
  );
}
