import StarIcon from '@mui/icons-material/Star';
import { Avatar, Box, Chip, Typography } from '@mui/material';
import { DataTable, List, NumberField, SearchInput, SelectInput } from 'react-admin';
import type { Talent } from '../../../events/talent';
import { initials, ROYALTY_SHORT } from '../common/format';

const filters = [
  <SearchInput key="q" source="q" alwaysOn placeholder="Search name, tagline or tag" />,
  <SelectInput key="status" source="status" label="Status" choices={[{ id: 'active', name: 'Active' }, { id: 'hidden', name: 'Hidden' }]} alwaysOn emptyText="Any status" />,
  <SelectInput key="founding" source="founding" label="Founding" choices={[{ id: 'true', name: 'Founding talent' }, { id: 'false', name: 'Standard' }]} alwaysOn emptyText="All talent" />,
  <SelectInput key="featured" source="featured" label="Featured" choices={[{ id: 'true', name: 'Featured' }, { id: 'false', name: 'Not featured' }]} emptyText="Either" />,
];

const Column = DataTable.Col<Talent>;

/** The talent catalog, hidden profiles included. */
export function TalentList() {
  return (
    <List title="Talent" filters={filters} sort={{ field: 'name', order: 'ASC' }} perPage={25} exporter={false} empty={false}>
      <DataTable rowClick="edit" bulkActionButtons={false}>
        <Column
          source="name"
          label="Talent"
          render={(t) => (
            <Box sx={{ display: 'flex', alignItems: 'center', gap: 1.5 }}>
              <Avatar variant="rounded" sx={{ width: 40, height: 40, bgcolor: 'primary.main', fontSize: '0.95rem' }} aria-hidden>
                {initials(t.name)}
              </Avatar>
              <Box>
                <Typography variant="body2" sx={{ fontWeight: 600 }}>
                  {t.name}
                </Typography>
                <Typography variant="caption" color="text.secondary" sx={{ display: 'block', maxWidth: 360, overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' }}>
                  {t.tagline}
                </Typography>
              </Box>
            </Box>
          )}
        />
        <Column source="status" label="Status" render={(t) => <Chip size="small" color={t.status === 'active' ? 'success' : 'default'} variant={t.status === 'active' ? 'filled' : 'outlined'} label={t.status === 'active' ? 'Active' : 'Hidden'} />} />
        <Column
          source="founding"
          label="Program"
          disableSort
          render={(t) => (
            <Box>
              <Typography variant="body2" sx={{ whiteSpace: 'nowrap' }}>{t.founding ? 'Founding talent' : 'Standard'}</Typography>
              <Typography variant="caption" color="text.secondary" sx={{ whiteSpace: 'nowrap' }}>
                {ROYALTY_SHORT[t.royaltyPlan] ?? t.royaltyPlan}
              </Typography>
            </Box>
          )}
        />
        <Column source="featured" label="Featured" disableSort render={(t) => (t.featured ? <StarIcon color="warning" aria-label="Featured" /> : null)} />
        <Column source="tags" label="Tags" disableSort render={(t) => (
          <Box sx={{ display: 'flex', gap: 0.5, flexWrap: 'wrap', maxWidth: 280 }}>
            {t.tags.map((tag) => (
              <Chip key={tag} size="small" variant="outlined" label={tag} />
            ))}
          </Box>
        )} />
        <Column source="generationCount" label="Images made" align="right">
          <NumberField source="generationCount" />
        </Column>
      </DataTable>
    </List>
  );
}
