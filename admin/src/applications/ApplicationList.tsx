import { Box, Chip, Typography } from '@mui/material';
import {
  DateField,
  DateInput,
  List,
  SearchInput,
  SelectInput,
  TextField,
  DataTable,
} from 'react-admin';
import type { ApplicationSummary } from '../../../events/founding';
import { APPLICATION_PROGRAMS, APPLICATION_STATUSES, EXCLUDABLE_INDUSTRIES } from '../../../events/founding-values';
import { INDUSTRY_LABELS, PROGRAM_LABELS, STATUS_LABELS } from '../common/format';
import { StatusChip } from '../common/StatusChip';
import { STEP_LABELS } from './FailureNotice';

const choices = (values: readonly string[], labels: Record<string, string>) => values.map((id) => ({ id, name: labels[id] ?? id }));

const filters = [
  <SearchInput key="q" source="q" alwaysOn placeholder="Search name or email" />,
  <SelectInput key="status" source="status" label="Status" choices={choices(APPLICATION_STATUSES, STATUS_LABELS)} alwaysOn emptyText="Any status" />,
  <SelectInput key="program" source="program" label="Program" choices={choices(APPLICATION_PROGRAMS, PROGRAM_LABELS)} alwaysOn emptyText="Any program" />,
  <DateInput key="from" source="from" label="Submitted from" />,
  <DateInput key="to" source="to" label="Submitted until" />,
  <SelectInput key="excludes" source="excludes" label="Excludes industry" choices={choices(EXCLUDABLE_INDUSTRIES, INDUSTRY_LABELS)} emptyText="Any" />,
];

const Column = DataTable.Col<ApplicationSummary>;

/** Founding and standard talent applications, oldest waiting first when filtered to pending. */
export function ApplicationList() {
  return (
    <List
      title="Applications"
      filters={filters}
      sort={{ field: 'submittedAt', order: 'DESC' }}
      perPage={25}
      exporter={false}
      empty={false}
    >
      <DataTable rowClick="show" bulkActionButtons={false}>
        <Column
          source="lastName"
          label="Applicant"
          render={(r) => (
            <Box>
              <Typography variant="body2" sx={{ fontWeight: 600 }}>
                {[r.firstName, r.lastName].filter(Boolean).join(' ')}
              </Typography>
              <Typography variant="caption" color="text.secondary">
                {r.email}
              </Typography>
            </Box>
          )}
        />
        <Column
          source="status"
          label="Status"
          render={(r) => (
            <Box>
              <StatusChip status={r.status} />
              {r.status === 'failed' && r.failure ? (
                <Typography variant="caption" color="error" sx={{ display: 'block' }}>
                  {STEP_LABELS[r.failure.step] ?? r.failure.step}
                </Typography>
              ) : null}
            </Box>
          )}
        />
        <Column source="program" label="Program" disableSort render={(r) => PROGRAM_LABELS[r.program] ?? r.program} />
        <Column source="location" label="Location" disableSort field={TextField} />
        <Column
          source="imageCount"
          label="Photos"
          disableSort
          render={(r) => (r.validPhotoCount !== undefined ? `${r.validPhotoCount} valid of ${r.imageCount}` : `${r.imageCount}`)}
        />
        <Column
          source="excludedIndustries"
          label="Excludes"
          disableSort
          render={(r) =>
            r.excludedIndustries?.length ? (
              <Box sx={{ display: 'flex', gap: 0.5, flexWrap: 'wrap' }}>
                {r.excludedIndustries.map((i) => (
                  <Chip key={i} size="small" variant="outlined" label={INDUSTRY_LABELS[i] ?? i} />
                ))}
              </Box>
            ) : (
              '—'
            )
          }
        />
        <Column source="submittedAt" label="Submitted">
          <DateField source="submittedAt" showTime locales="en-GB" options={{ dateStyle: 'medium', timeStyle: 'short' }} />
        </Column>
      </DataTable>
    </List>
  );
}
