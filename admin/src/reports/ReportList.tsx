import { Box, Typography } from '@mui/material';
import { DataTable, List, SelectInput } from 'react-admin';
import { formatDateTime } from '../common/format';
import { CATEGORY_LABELS, isWaiting, matchLine, STATUS_CHOICES } from './labels';
import { IntimateFlag, ReportStatusChip, SlaTimer, useNow } from './SlaTimer';
import type { AdminReportSummary } from '../../../events/reports';

const filters = [<SelectInput key="status" source="status" label="Status" choices={STATUS_CHOICES} alwaysOn emptyText="Any status" />];

const Column = DataTable.Col<AdminReportSummary>;
const INTIMATE_ROW = { bgcolor: 'rgba(198, 40, 40, 0.05)', '& > td:first-of-type': { boxShadow: 'inset 4px 0 0 #c62828' } };

/**
 * The reports queue, in the order the API gives it: by due time, overdue and intimate-image
 * reports first. Each row's timer says how long is left, in red once it is overdue.
 */
export function ReportList() {
  const now = useNow();
  return (
    <List title="Reports" filters={filters} perPage={25} exporter={false} empty={false}>
      <DataTable
        rowClick="show"
        bulkActionButtons={false}
        // An intimate-image report waiting for a decision: a red bar along its row.
        rowSx={(r) => (r.category === 'intimate' && isWaiting(r.status) ? INTIMATE_ROW : {})}
      >
        <Column
          source="reference"
          label="Reference"
          disableSort
          render={(r) => (
            <Typography variant="body2" sx={{ fontWeight: 600, fontFamily: 'monospace', whiteSpace: 'nowrap' }}>
              {r.reference}
            </Typography>
          )}
        />
        <Column
          source="category"
          label="Category"
          disableSort
          render={(r) => (
            <Box sx={{ display: 'flex', flexDirection: 'column', alignItems: 'flex-start', gap: 0.5 }}>
              {r.category === 'intimate' ? <IntimateFlag /> : null}
              <Typography variant="body2">{CATEGORY_LABELS[r.category] ?? r.category}</Typography>
            </Box>
          )}
        />
        <Column
          source="match"
          label="Match"
          disableSort
          render={(r) => (
            <Typography variant="body2" color={r.match?.verdict === 'ours' ? 'text.primary' : 'text.secondary'} sx={{ overflowWrap: 'anywhere' }} data-testid="report-match">
              {matchLine(r.match)}
            </Typography>
          )}
        />
        <Column source="receivedAt" label="Received" disableSort render={(r) => <Box sx={{ whiteSpace: 'nowrap' }}>{formatDateTime(r.receivedAt)}</Box>} />
        <Column source="dueAt" label="Due" disableSort render={(r) => <Box sx={{ whiteSpace: 'nowrap' }}>{formatDateTime(r.dueAt)}</Box>} />
        <Column source="sla" label="Time left" disableSort render={(r) => <SlaTimer dueAt={r.dueAt} status={r.status} overdue={r.overdue} now={now} />} />
        <Column source="status" label="Status" disableSort render={(r) => <ReportStatusChip status={r.status} />} />
      </DataTable>
    </List>
  );
}
