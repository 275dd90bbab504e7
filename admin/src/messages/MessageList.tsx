import { Chip, Typography } from '@mui/material';
import { DataTable, DateField, List, SearchInput, SelectInput } from 'react-admin';
import type { AdminMessage } from '../../../events/admin';

const filters = [
  <SearchInput key="q" source="q" alwaysOn placeholder="Search name, email or subject" />,
  <SelectInput key="status" source="status" label="Status" choices={[{ id: 'new', name: 'New' }, { id: 'handled', name: 'Handled' }]} alwaysOn emptyText="Any status" />,
];

const Column = DataTable.Col<AdminMessage>;

export function MessageStatusChip({ status }: { status: AdminMessage['status'] }) {
  return status === 'handled' ? <Chip size="small" variant="outlined" label="Handled" /> : <Chip size="small" color="warning" label="New" />;
}

/** Contact-form messages, newest first. */
export function MessageList() {
  return (
    <List title="Messages" filters={filters} filterDefaultValues={{ status: 'new' }} sort={{ field: 'createdAt', order: 'DESC' }} perPage={25} exporter={false} empty={false}>
      <DataTable rowClick="show" bulkActionButtons={false}>
        <Column source="status" label="Status" render={(m) => <MessageStatusChip status={m.status} />} />
        <Column
          source="subject"
          label="Subject"
          render={(m) => (
            <>
              <Typography variant="body2" sx={{ fontWeight: m.status === 'new' ? 600 : 400 }}>
                {m.subject}
              </Typography>
              <Typography variant="caption" color="text.secondary" sx={{ display: 'block', maxWidth: 480, overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' }}>
                {m.message}
              </Typography>
            </>
          )}
        />
        <Column source="email" label="From" disableSort render={(m) => (
          <>
            <Typography variant="body2">{`${m.firstName} ${m.lastName}`}</Typography>
            <Typography variant="caption" color="text.secondary">{m.email}</Typography>
          </>
        )} />
        <Column source="page" label="Page" disableSort render={(m) => m.page ?? '—'} />
        <Column source="createdAt" label="Received">
          <DateField source="createdAt" showTime locales="en-GB" options={{ dateStyle: 'medium', timeStyle: 'short' }} />
        </Column>
      </DataTable>
    </List>
  );
}
