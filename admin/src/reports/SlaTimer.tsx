import TimerIcon from '@mui/icons-material/TimerOutlined';
import { Box, Chip } from '@mui/material';
import { useEffect, useState } from 'react';
import { slaOf } from './sla';
import { isWaiting, STATUS_COLORS, STATUS_LABELS } from './labels';
import type { ReportStatus } from '../../../events/report-values';

/** The current time, read again every `everyMs` so timers move while the page stays open. */
export function useNow(everyMs = 60_000): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const t = setInterval(() => setNow(Date.now()), everyMs);
    return () => clearInterval(t);
  }, [everyMs]);
  return now;
}

/**
 * "due in 3 h" or, in red, "overdue by 2 h", for a case that waits for a reviewer; a decided case
 * has no timer. `overdue` is the scheduled check's flag: the case shows overdue even if this
 * browser's clock disagrees.
 */
export function SlaTimer({ dueAt, status, overdue, now }: { dueAt: string; status: ReportStatus; overdue?: boolean; now: number }) {
  if (!isWaiting(status)) return <Box component="span" sx={{ color: 'text.secondary' }}>—</Box>;
  const timed = slaOf(dueAt, now);
  const sla = overdue && !timed.overdue ? { text: 'Overdue', overdue: true, soon: false } : timed;
  return (
    <Chip
      size="small"
      icon={<TimerIcon />}
      sx={{ whiteSpace: 'nowrap' }}
      label={sla.text}
      color={sla.overdue ? 'error' : sla.soon ? 'warning' : 'default'}
      variant={sla.overdue || sla.soon ? 'filled' : 'outlined'}
      data-testid="sla-timer"
      data-overdue={sla.overdue ? 'true' : 'false'}
    />
  );
}

export function ReportStatusChip({ status }: { status: ReportStatus }) {
  return <Chip size="small" label={STATUS_LABELS[status] ?? status} color={STATUS_COLORS[status] ?? 'default'} variant={isWaiting(status) ? 'filled' : 'outlined'} data-testid="report-status" />;
}

/** The flag of an intimate-image report: red and first in the row, so it is never missed. */
export function IntimateFlag() {
  return <Chip size="small" color="error" label="Intimate image · 48 h"
      title="Intimate or sexual content: decide within 48 hours" data-testid="intimate-flag" sx={{ fontWeight: 700 }} />;
}
