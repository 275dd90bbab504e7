import { Chip } from '@mui/material';
import { DataTable, DateField, FilterButton, List, SearchInput, SelectInput, TopToolbar } from 'react-admin';
import type { WaitlistEntry } from '../../../events/admin';
import { SIGNUP_TYPES } from '../../../events/waitlist-values';
import { ExportCsvButton } from './ExportCsvButton';

const filters = [
  <SearchInput key="q" source="q" alwaysOn placeholder="Search email or name" />,
  <SelectInput
    key="signupType"
    source="signupType"
    label="Signup type"
    choices={Object.entries(SIGNUP_TYPES).map(([id, name]) => ({ id, name }))}
    alwaysOn
    emptyText="Any type"
  />,
  <SelectInput
    key="newsletter"
    source="newsletter"
    label="Newsletter"
    choices={[
      { id: 'true', name: 'Subscribed' },
      { id: 'false', name: 'Not subscribed' },
    ]}
    emptyText="Either"
  />,
];

const Column = DataTable.Col<WaitlistEntry>;

const WELCOME: Record<string, { label: string; color: 'default' | 'success' | 'error' | 'info' }> = {
  sent: { label: 'Sent', color: 'success' },
  failed: { label: 'Failed', color: 'error' },
  queued: { label: 'Queued', color: 'info' },
  sending: { label: 'Sending', color: 'info' },
};

function WelcomeChip({ state }: { state?: string }) {
  if (!state) return <>—</>;
  const w = WELCOME[state] ?? { label: state, color: 'default' as const };
  return <Chip size="small" variant="outlined" color={w.color} label={w.label} />;
}

function Actions() {
  return (
    <TopToolbar>
      <FilterButton />
      <ExportCsvButton />
    </TopToolbar>
  );
}

/** The early-access waitlist in signup order. */
export function WaitlistList() {
  return (
    <List title="Waitlist" filters={filters} actions={<Actions />} sort={{ field: 'position', order: 'ASC' }} perPage={50} exporter={false} empty={false}>
      <DataTable bulkActionButtons={false} rowClick={false}>
        <Column source="position" label="#" sx={{ width: 64 }} />
        <Column source="email" label="Email" />
        <Column source="firstName" label="First name" disableSort render={(r) => r.firstName || '—'} />
        <Column
          source="signupType"
          label="Signup type"
          disableSort
          render={(r) => (r.signupType ? (SIGNUP_TYPES as Record<string, string>)[r.signupType] ?? r.signupType : '—')}
        />
        <Column
          source="newsletter"
          label="Newsletter"
          disableSort
          render={(r) => <Chip size="small" variant={r.newsletter ? 'filled' : 'outlined'} color={r.newsletter ? 'primary' : 'default'} label={r.newsletter ? 'Yes' : 'No'} />}
        />
        <Column source="welcome" label="Welcome email" disableSort render={(r) => <WelcomeChip state={r.welcome} />} />
        <Column source="signedUpAt" label="Signed up">
          <DateField source="signedUpAt" showTime locales="en-GB" options={{ dateStyle: 'medium', timeStyle: 'short' }} />
        </Column>
      </DataTable>
    </List>
  );
}
