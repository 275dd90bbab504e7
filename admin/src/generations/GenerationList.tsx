import { Typography } from '@mui/material';
import { AutocompleteInput, DataTable, DateField, List, ReferenceInput, SelectInput } from 'react-admin';
import type { AdminGeneration } from '../../../events/generations';
import { NameCell } from '../common/NameCell';
import { GenerationStatusChip } from './GenerationStatusChip';
import { GENERATION_STATUS_CHOICES } from './labels';

const filters = [
  <SelectInput key="status" source="status" label="Status" choices={GENERATION_STATUS_CHOICES} alwaysOn emptyText="Any status" />,
  <ReferenceInput key="talentId" source="talentId" reference="talent" perPage={200} sort={{ field: 'name', order: 'ASC' }} alwaysOn>
    <SelectInput label="Talent" optionText="name" emptyText="Any talent" />
  </ReferenceInput>,
  // The client is picked by email from the Users resource (clients only); the list filters on their account id.
  <ReferenceInput key="accountId" source="accountId" reference="users" filter={{ role: 'client' }} perPage={20} alwaysOn>
    <AutocompleteInput label="Client" optionText="email" filterToQuery={(q: string) => ({ q })} helperText={false} sx={{ minWidth: 280 }} />
  </ReferenceInput>,
];

/**
 * Images delivered of those asked for. List rows carry no images (their URLs are signed on the
 * detail only), so a row counts them by the credits spent: one credit buys one image (docs/product.md#pricing).
 */
const delivered = (g: AdminGeneration) => (g.images.length ? g.images.length : g.creditsSpent);

const Column = DataTable.Col<AdminGeneration>;

/** Every generation, newest first: who made it, with whom, how it ended and what it cost. */
export function GenerationList() {
  return (
    <List title="Generations" filters={filters} sort={{ field: 'createdAt', order: 'DESC' }} perPage={25} exporter={false} empty={false}>
      <DataTable rowClick="show" bulkActionButtons={false}>
        <Column source="createdAt" label="Created">
          <DateField source="createdAt" showTime locales="en-GB" options={{ dateStyle: 'medium', timeStyle: 'short' }} />
        </Column>
        <Column
          source="clientEmail"
          label="Client"
          disableSort
          render={(g) => (
            <Typography variant="body2" sx={{ overflowWrap: 'anywhere' }}>
              {g.clientEmail}
            </Typography>
          )}
        />
        <Column source="talentName" label="Talent" disableSort render={(g) => <NameCell name={g.talentName} caption={g.style} />} />
        <Column source="status" label="Status" disableSort render={(g) => <GenerationStatusChip status={g.status} />} />
        <Column source="images" label="Images" disableSort align="right" render={(g) => `${delivered(g)} of ${g.count}`} />
        <Column source="creditsSpent" label="Credits spent" disableSort align="right" render={(g) => g.creditsSpent.toLocaleString('en')} />
      </DataTable>
    </List>
  );
}
