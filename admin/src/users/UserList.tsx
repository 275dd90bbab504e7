import { Box, Chip, Typography } from '@mui/material';
import { DataTable, DateField, List, SearchInput, SelectInput } from 'react-admin';
import type { AdminUserSummary } from '../../../events/accounts';
import { SELF_SIGNUP_ROLES } from '../../../events/account-values';
import { PLAN_CHOICES, planName, ROLE_LABELS } from './labels';

const filters = [
  <SearchInput key="q" source="q" alwaysOn placeholder="Search email" />,
  <SelectInput key="role" source="role" label="Role" choices={SELF_SIGNUP_ROLES.map((id) => ({ id, name: ROLE_LABELS[id] ?? id }))} alwaysOn emptyText="Any role" />,
  <SelectInput key="plan" source="plan" label="Plan" choices={PLAN_CHOICES} alwaysOn emptyText="Any plan" />,
  <SelectInput key="planRequest" source="planRequest" label="Plan request" choices={[{ id: 'pending', name: 'Plan request pending' }]} alwaysOn emptyText="Any" />,
];

const Column = DataTable.Col<AdminUserSummary>;

/** Client and talent accounts, newest first. */
export function UserList() {
  return (
    <List title="Users" filters={filters} sort={{ field: 'createdAt', order: 'DESC' }} perPage={25} exporter={false} empty={false}>
      <DataTable rowClick="show" bulkActionButtons={false}>
        <Column
          source="email"
          label="Email"
          disableSort
          render={(u) => (
            <Box>
              <Typography variant="body2" sx={{ fontWeight: 600, overflowWrap: 'anywhere' }}>
                {u.email}
              </Typography>
              {u.planRequest ? (
                <Typography variant="caption" color="warning.main">
                  Asks for {planName(u.planRequest.plan)}
                </Typography>
              ) : null}
            </Box>
          )}
        />
        <Column source="full_name" label="Name" disableSort render={(u) => u.full_name || '—'} />
        <Column source="role" label="Role" disableSort render={(u) => ROLE_LABELS[u.role] ?? u.role} />
        <Column source="plan" label="Plan" disableSort render={(u) => (u.role === 'client' ? planName(u.plan) : '—')} />
        <Column source="balance" label="Credits" disableSort align="right" render={(u) => (u.balance === undefined ? '—' : u.balance.toLocaleString('en'))} />
        <Column
          source="disabled"
          label="Access"
          disableSort
          render={(u) => (u.disabled ? <Chip size="small" color="error" label="Disabled" /> : <Chip size="small" variant="outlined" label="Active" />)}
        />
        <Column source="createdAt" label="Created">
          <DateField source="createdAt" showTime locales="en-GB" options={{ dateStyle: 'medium', timeStyle: 'short' }} />
        </Column>
      </DataTable>
    </List>
  );
}
