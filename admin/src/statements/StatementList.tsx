import { DataTable, DateField, List, ReferenceInput, SelectInput, TextInput, TopToolbar } from 'react-admin';
import { dollarsOfCents } from '../../../events/royalty-format';
import type { StatementSummary } from '../../../events/royalties';
import { MONTH_MESSAGE, MONTH_PATTERN } from '../../../events/royalty-values';
import { NameCell } from '../common/NameCell';
import { DownloadPayoutsButton } from './DownloadPayoutsButton';
import { PAYOUT_CHOICES, monthLabel } from './labels';
import { PayoutChip } from './PayoutChip';

const monthValid = (value: string | undefined) => (!value || MONTH_PATTERN.test(value) ? undefined : MONTH_MESSAGE);

const filters = [
  <TextInput key="month" source="month" label="Month (YYYY-MM)" alwaysOn validate={monthValid} helperText={false} />,
  <ReferenceInput key="talentId" source="talentId" reference="talent" perPage={200} sort={{ field: 'name', order: 'ASC' }} alwaysOn>
    <SelectInput label="Talent" optionText="name" emptyText="Any talent" />
  </ReferenceInput>,
  <SelectInput key="payout" source="payout" label="Payout" choices={PAYOUT_CHOICES} alwaysOn emptyText="Any payout status" />,
];

function Actions() {
  return (
    <TopToolbar>
      <DownloadPayoutsButton />
    </TopToolbar>
  );
}

const Column = DataTable.Col<StatementSummary>;

/**
 * Closed statements: a month's (every talent), a talent's (every month), or unfiltered the
 * latest closed month's; newest month first, then by talent.
 */
export function StatementList() {
  return (
    <List title="Statements" filters={filters} actions={<Actions />} perPage={25} exporter={false} empty={false} sort={{ field: 'month', order: 'DESC' }}>
      <DataTable rowClick="show" bulkActionButtons={false}>
        <Column source="month" label="Month" disableSort render={(s) => monthLabel(s.month)} />
        <Column source="talentName" label="Talent" disableSort render={(s) => <NameCell name={s.talentName} caption={s.talentId} />} />
        <Column source="totals.licenses" label="Licenses" disableSort align="right" render={(s) => s.totals.licenses.toLocaleString('en')} />
        <Column source="totals.royaltyCents" label="Royalty" disableSort align="right" render={(s) => `$${dollarsOfCents(s.totals.royaltyCents)}`} />
        <Column source="payout" label="Payout" disableSort render={(s) => <PayoutChip status={s.payout.status} />} />
        <Column source="closedAt" label="Closed" disableSort>
          <DateField source="closedAt" showTime locales="en-GB" options={{ dateStyle: 'medium', timeStyle: 'short' }} />
        </Column>
      </DataTable>
    </List>
  );
}
