import { Chip } from '@mui/material';
import { STATUS_COLORS, STATUS_LABELS } from './format';

/** An application's status as a coloured chip. */
export function StatusChip({ status }: { status?: string }) {
  if (!status) return null;
  return <Chip size="small" label={STATUS_LABELS[status] ?? status} color={STATUS_COLORS[status] ?? 'default'} variant={status === 'rejected' ? 'outlined' : 'filled'} />;
}
