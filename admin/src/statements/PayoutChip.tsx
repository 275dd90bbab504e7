import { Chip } from '@mui/material';
import type { PayoutStatus } from '../../../events/royalty-values';
import { PAYOUT_CHIP_STYLES, PAYOUT_LABELS } from './labels';

export function PayoutChip({ status }: { status: PayoutStatus }) {
  return <Chip size="small" data-testid="payout-status" label={PAYOUT_LABELS[status]} sx={{ ...PAYOUT_CHIP_STYLES[status], fontWeight: 600 }} />;
}
