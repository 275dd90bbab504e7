import { Chip } from '@mui/material';
import { useRecordContext } from 'react-admin';
import { STATUS_COLORS, STATUS_LABELS } from './format';

/** An application's status as a coloured chip. */
export function StatusChip({ status }: { status?: string }) {
  if (!status) return null;
  return <Chip size="small" label={STATUS_LABELS[status] ?? status} color={STATUS_COLORS[status] ?? 'default'} variant={status === 'rejected' ? 'outlined' : 'filled'} />;
}

/** The same chip for the record in context (list columns). */
export function StatusField(_props: { label?: string; sortBy?: string; source?: string }) {
  const record = useRecordContext<{ status?: string }>();
  return <StatusChip status={record?.status} />;
}
