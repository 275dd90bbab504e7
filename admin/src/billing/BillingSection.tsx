import { Alert, Box, Chip, Link, Table, TableBody, TableCell, TableHead, TableRow, Typography } from '@mui/material';
import { Fields, Section } from '../common/DetailSection';
import { formatDateTime } from '../common/format';
import { Loaded } from '../common/Loaded';
import { planName } from '../users/labels';
import { flagText, money, PAYMENT_STATUS_COLORS, PAYMENT_STATUS_LABELS, refundable, SUBSCRIPTION_STATE_LABELS } from './labels';
import { RefundButton } from './RefundButton';
import type { useUserBilling } from './useUserBilling';

/**
 * A client's billing on their page: the subscription as Stripe last said, every payment with its
 * refunds and the credits taken back (and those already spent), Stripe's receipts, and a refund
 * per payment.
 */
export function BillingSection({ billing, onRefunded }: { billing: ReturnType<typeof useUserBilling>; onRefunded: () => void }) {
  return (
    <Section
      title="Billing"
      id="billing-title"
      action={
        billing.data?.customerId ? (
          <Typography variant="body2" color="text.secondary" sx={{ overflowWrap: 'anywhere' }}>
            Stripe customer {billing.data.customerId}
          </Typography>
        ) : undefined
      }
    >
      <Loaded query={billing} loading="Loading the billing…">
        {(data) => (
          <Box sx={{ display: 'flex', flexDirection: 'column', gap: 2 }}>
            {data.spentRefundedCredits > 0 ? (
              <Alert severity="warning" data-testid="billing-flag">
                {flagText(data.spentRefundedCredits)}
              </Alert>
            ) : null}
            {data.subscription ? (
              <Fields
                rows={[
                  ['Subscription', `${planName(data.subscription.plan)} plan`],
                  ['State', SUBSCRIPTION_STATE_LABELS[data.subscription.state]],
                  [data.subscription.state === 'canceling' || data.subscription.state === 'ended' ? 'Ends' : 'Renews', formatDateTime(data.subscription.currentPeriodEnd)],
                  ...(data.subscription.scheduledPlan ? [['Then', `${planName(data.subscription.scheduledPlan)} plan`] as [string, string]] : []),
                ]}
              />
            ) : (
              <Typography variant="body2" color="text.secondary">
                No subscription through Stripe.
              </Typography>
            )}
            {data.payments.length ? (
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
                    {data.payments.map((p) => (
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
                        <TableCell>{refundable(p) ? <RefundButton payment={p} onRefunded={onRefunded} /> : null}</TableCell>
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
      </Loaded>
    </Section>
  );
}
