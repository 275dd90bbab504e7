import { Chip } from '@mui/material';
import type { PayoutStatus } from '../../../events/royalty-values';
import { PAYOUT_COLORS, PAYOUT_LABELS } from './labels';

export function PayoutChip({ status }: { status: PayoutStatus }) {
  return <Chip size="small" data-testid="payout-status" color={PAYOUT_COLORS[status]} label={PAYOUT_LABELS[status]} />;
}
