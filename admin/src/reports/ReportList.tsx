import { Box, Typography } from '@mui/material';
import { DataTable, List, SelectInput } from 'react-admin';
import type { AdminReportSummary } from '../../../events/reports';
import { NOT_OURS_MESSAGE } from '../../../events/report-values';
import { formatDateTime } from '../common/format';
import { CATEGORY_LABELS, isWaiting, STATUS_CHOICES } from './labels';
import { IntimateFlag, ReportStatusChip, SlaTimer, useNow } from './SlaTimer';

const filters = [<SelectInput key="status" source="status" label="Status" choices={STATUS_CHOICES} alwaysOn emptyText="Any status" />];

const Column = DataTable.Col<AdminReportSummary>;
/** An intimate-image report waiting for a decision: a red bar along its row. */
const INTIMATE_ROW = { bgcolor: 'rgba(198, 40, 40, 0.05)', '& > td:first-of-type': { boxShadow: 'inset 4px 0 0 #c62828' } };
const noWrap = { whiteSpace: 'nowrap' } as const;

/** The talent and license a report's file matched (with a note when the image is withheld), or not ours. */
function MatchCell({ report }: { report: AdminReportSummary }) {
  const { match } = report;
  if (match.verdict !== 'ours')
    return (
      <Typography variant="body2" color="text.secondary" sx={noWrap} data-testid="report-match">
        {NOT_OURS_MESSAGE}
      </Typography>
    );
  return (
    <Box data-testid="report-match">
      <Typography variant="body2" sx={{ fontWeight: 600, ...noWrap }}>
        {match.talentName}
      </Typography>
      <Typography variant="caption" color="text.secondary" sx={{ fontFamily: 'monospace', ...noWrap }}>
        {match.licenseId}
      </Typography>
      {report.hidden ? (
        <Typography variant="caption" color="error" sx={{ display: 'block', fontWeight: 600, ...noWrap }}>
          Image withheld
        </Typography>
      ) : null}
    </Box>
  );
}

/**
 * The reports queue, in the order the API gives it: by due time, overdue and intimate-image
 * reports first. The case and its timer lead each row (what a phone shows first); the timer is
 * red once the case is overdue, and an intimate-image report carries a red flag and bar.
 */
export function ReportList() {
  const now = useNow();
  return (
    <List title="Reports" filters={filters} perPage={25} exporter={false} empty={false}>
      <DataTable rowClick="show" bulkActionButtons={false} rowSx={(r) => (r.category === 'intimate' && isWaiting(r.status) ? INTIMATE_ROW : {})}>
        <Column
          source="reference"
          label="Case"
          disableSort
          render={(r) => (
            <Box sx={{ display: 'flex', flexDirection: 'column', alignItems: 'flex-start', gap: 0.5 }}>
              <Typography variant="body2" sx={{ fontWeight: 600, fontFamily: 'monospace', ...noWrap }}>
                {r.reference}
              </Typography>
              <ReportStatusChip status={r.status} />
            </Box>
          )}
        />
        <Column source="dueAt" label="Time left" disableSort render={(r) => <SlaTimer dueAt={r.dueAt} status={r.status} overdue={r.overdue} now={now} />} />
        <Column
          source="category"
          label="Category"
          disableSort
          render={(r) =>
            r.category === 'intimate' ? (
              <IntimateFlag />
            ) : (
              <Typography variant="body2" sx={{ minWidth: 180 }}>
                {CATEGORY_LABELS[r.category] ?? r.category}
              </Typography>
            )
          }
        />
        <Column source="match" label="Match" disableSort render={(r) => <MatchCell report={r} />} />
        <Column source="receivedAt" label="Received" disableSort render={(r) => <Box sx={noWrap}>{formatDateTime(r.receivedAt)}</Box>} />
        <Column source="due" label="Due" disableSort render={(r) => <Box sx={noWrap}>{formatDateTime(r.dueAt)}</Box>} />
      </DataTable>
    </List>
  );
}
