import { Alert, Box, Button, Card, CardContent, CircularProgress, FormControlLabel, Radio, RadioGroup, TextField, Typography } from '@mui/material';
import { useQueryClient } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { useDataProvider, useNotify } from 'react-admin';
import type { GenerationConfig } from '../../../events/generations';
import type { ConsoleDataProvider } from '../dataProvider';
import { errorText } from '../common/errorText';
import { Loaded } from '../common/Loaded';
import { useConsoleQuery } from '../common/useConsoleQuery';

type Kind = 'model' | 'version';
type FieldErrors = Partial<Record<'model' | 'version' | 'triggerWord', string>>;

interface Form {
  kind: Kind;
  reference: string;
  triggerWord: string;
}
const formOf = (config: GenerationConfig | null): Form => ({
  kind: config?.version ? 'version' : 'model',
  reference: config?.version ?? config?.model ?? '',
  triggerWord: config?.triggerWord ?? '',
});

/** The API's `{fields}` of a refused request, else nothing. */
function fieldErrorsOf(e: unknown): FieldErrors {
  const fields = (e as { body?: { fields?: Record<string, string> } } | undefined)?.body?.fields;
  return fields && typeof fields === 'object' ? fields : {};
}

/**
 * The talent's generation config: the Replicate model (`owner/name`) or version id their images
 * are made with, and the trigger word the model was trained with. Saved on its own (not with the
 * profile form); the API validates it and its messages show on the fields.
 */
export function GenerationConfigSection({ talentId }: { talentId: string }) {
  const dataProvider = useDataProvider<ConsoleDataProvider>();
  const queryClient = useQueryClient();
  const titleId = useId();
  const config = useConsoleQuery<GenerationConfig | null>({
    queryKey: ['generation-config', talentId],
    read: () => dataProvider.getGenerationConfig(talentId),
    // None yet is an answer too.
    isAnswer: (data) => data === null || 'triggerWord' in data,
    forbidden: 'You do not have access to this.',
    failed: 'The generation config could not be loaded.',
  });
  return (
    <Card component="section" aria-labelledby={titleId} sx={{ mt: 2 }}>
      {/* As wide as the profile form above. */}
      <CardContent sx={{ display: 'flex', flexDirection: 'column', gap: 2, maxWidth: 860, boxSizing: 'border-box' }}>
        <Box>
          <Typography id={titleId} component="h2" variant="h6">
            Generation config
          </Typography>
          <Typography variant="body2" color="text.secondary">
            The Replicate model trained on this talent's likeness, and the word that calls it up in a prompt. Typed here for
            seeded talent only: a talent accepted from an application generates with the version of their own model they
            approved (see Likeness model trainings).
          </Typography>
        </Box>
        <Loaded query={config} loading="Loading the generation config…">
          {(data) => <ConfigForm talentId={talentId} config={data} onSaved={(saved) => queryClient.setQueryData(['console', 'generation-config', talentId], saved)} />}
        </Loaded>
      </CardContent>
    </Card>
  );
}

/** The config's fields, filled from what is saved (none: empty), and Save. */
function ConfigForm({ talentId, config, onSaved }: { talentId: string; config: GenerationConfig | null; onSaved: (saved: GenerationConfig) => void }) {
  const dataProvider = useDataProvider<ConsoleDataProvider>();
  const notify = useNotify();
  const [form, setForm] = useState<Form>(() => formOf(config));
  const { kind, reference, triggerWord } = form;
  const [pending, setPending] = useState(false);
  const [errors, setErrors] = useState<FieldErrors>({});
  const [formError, setFormError] = useState<string | null>(null);

  const save = async () => {
    setPending(true);
    setErrors({});
    setFormError(null);
    const config = (kind === 'model' ? { model: reference.trim(), triggerWord: triggerWord.trim() } : { version: reference.trim(), triggerWord: triggerWord.trim() }) as GenerationConfig;
    try {
      const result = await dataProvider.setGenerationConfig(talentId, config);
      if (!result?.data?.triggerWord) throw new Error('The generation config could not be saved.');
      setForm(formOf(result.data));
      onSaved(result.data);
      notify('Generation config saved.', { type: 'success' });
    } catch (e) {
      const fields = fieldErrorsOf(e);
      setErrors(fields);
      // A message for a field this form does not show goes above the button.
      if (!fields.triggerWord && !fields[kind]) setFormError(errorText(e, 'The generation config could not be saved.'));
    } finally {
      setPending(false);
    }
  };

  const referenceError = kind === 'model' ? errors.model : errors.version;
  return (
    <>
      {!config ? <Alert severity="warning">No generation config yet: clients cannot generate this talent until one is saved.</Alert> : null}
      <RadioGroup row aria-label="Refer to the model by" value={kind} onChange={(e) => (setForm({ ...form, kind: e.target.value as Kind }), setErrors({}))}>
        <FormControlLabel value="model" control={<Radio />} label="Model (owner/name)" />
        <FormControlLabel value="version" control={<Radio />} label="Version id" />
      </RadioGroup>
      <TextField
        label={kind === 'model' ? 'Model' : 'Version'}
        value={reference}
        onChange={(e) => setForm({ ...form, reference: e.target.value })}
        error={!!referenceError}
        helperText={referenceError ?? (kind === 'model' ? 'For example humanly-preview/maya-chen.' : '64 hexadecimal characters.')}
        slotProps={{ htmlInput: { spellCheck: false, autoCapitalize: 'off' } }}
        fullWidth
      />
      <TextField
        label="Trigger word"
        value={triggerWord}
        onChange={(e) => setForm({ ...form, triggerWord: e.target.value })}
        error={!!errors.triggerWord}
        helperText={errors.triggerWord ?? 'One word, put before every prompt of this talent.'}
        slotProps={{ htmlInput: { spellCheck: false, autoCapitalize: 'off', maxLength: 40 } }}
        sx={{ maxWidth: 360 }}
      />
      {formError ? <Alert severity="error">{formError}</Alert> : null}
      <Box>
        <Button variant="contained" onClick={save} disabled={pending} startIcon={pending ? <CircularProgress size={16} color="inherit" /> : undefined}>
          Save generation config
        </Button>
      </Box>
    </>
  );
}
