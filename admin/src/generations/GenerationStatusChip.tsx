import { Chip } from '@mui/material';
import type { GenerationStatus } from '../../../events/generation-values';
import { GENERATION_STATUS_COLORS, GENERATION_STATUS_LABELS } from './labels';

/** A generation's status as a coloured chip. */
export function GenerationStatusChip({ status }: { status?: GenerationStatus }) {
  if (!status) return null;
  return (
    <Chip
      size="small"
      label={GENERATION_STATUS_LABELS[status] ?? status}
      color={GENERATION_STATUS_COLORS[status] ?? 'default'}
      variant={status === 'canceled' || status === 'queued' ? 'outlined' : 'filled'}
    />
  );
}
