import { Alert, Avatar, Box, Card, CardContent, Chip, Typography } from '@mui/material';
import {
  BooleanInput,
  Edit,
  maxLength,
  required,
  SaveButton,
  SelectInput,
  SimpleForm,
  TextArrayInput,
  TextInput,
  Toolbar,
  useRecordContext,
} from 'react-admin';
import { useParams } from 'react-router';
import type { Talent } from '../../../events/talent';
import { initials, ROYALTY_LABELS } from '../common/format';
import { PayoutHistorySection } from '../payouts/PayoutHistorySection';
import { TrainingsSection } from '../training/TrainingsSection';
import { ExclusiveContractSection } from './ExclusiveContractSection';
import { GenerationConfigSection } from './GenerationConfigSection';

function Summary() {
  const t = useRecordContext<Talent>();
  if (!t) return null;
  return (
    <Card variant="outlined" sx={{ mb: 2, width: '100%', boxSizing: 'border-box' }}>
      <CardContent sx={{ display: 'flex', gap: 2, alignItems: 'center' }}>
        <Avatar variant="rounded" sx={{ width: 56, height: 56, bgcolor: 'primary.main' }} aria-hidden>
          {initials(t.name)}
        </Avatar>
        <Box sx={{ flex: 1 }}>
          <Typography component="h1" variant="h6">
            {t.name}
          </Typography>
          <Typography variant="body2" color="text.secondary">
            {t.id} · {t.generationCount.toLocaleString('en')} images made
          </Typography>
        </Box>
        <Box sx={{ textAlign: 'right' }}>
          <Chip color={t.founding ? 'primary' : 'default'} label={t.founding ? 'Founding talent' : 'Standard talent'} />
          <Typography variant="body2" color="text.secondary" sx={{ mt: 0.5 }}>
            Royalty plan: {ROYALTY_LABELS[t.royaltyPlan] ?? t.royaltyPlan}
          </Typography>
        </Box>
      </CardContent>
    </Card>
  );
}

function EditToolbar() {
  return (
    <Toolbar>
      <SaveButton />
    </Toolbar>
  );
}

/**
 * Edits what reviewers curate: tagline, bio, tags, featured, status. Founding and royalty plan
 * are shown, not edited. Below, the talent's generation config, saved on its own.
 */
export function TalentEdit() {
  const { id } = useParams<{ id: string }>();
  return (
    <>
      <Edit title="Edit talent" mutationMode="pessimistic" redirect="list">
        <SimpleForm toolbar={<EditToolbar />} sx={{ maxWidth: 860 }}>
          <Summary />
          <TextInput source="tagline" label="Tagline" validate={[required(), maxLength(160)]} fullWidth />
          <TextInput source="bio" label="Bio" validate={[required(), maxLength(2000)]} multiline minRows={4} fullWidth />
          <TextArrayInput source="tags" label="Tags" helperText="Press Enter after each tag (at most 12)." fullWidth />
          <SelectInput
              source="status"
              label="Status"
              choices={[
                { id: 'active', name: 'Active: shown in the Talent Library' },
                { id: 'hidden', name: 'Hidden' },
              ]}
              validate={required()}
              sx={{ minWidth: 360 }}
            />
          <BooleanInput source="featured" label="Featured on the site" helperText="Featured talent lead the site's Talent Library." />
          <Alert severity="info" sx={{ mt: 1, width: '100%', boxSizing: 'border-box' }}>
            The founding flag and royalty plan follow from the application's decision and cannot be changed here.
          </Alert>
        </SimpleForm>
      </Edit>
      {id ? <GenerationConfigSection key={id} talentId={id} /> : null}
      {id ? <TrainingsSection key={`trainings-${id}`} talentId={id} /> : null}
      {id ? <ExclusiveContractSection key={`exclusive-contract-${id}`} talentId={id} /> : null}
      {id ? <PayoutHistorySection key={`payout-history-${id}`} talentId={id} /> : null}
    </>
  );
}
