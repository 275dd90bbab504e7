import {
  Alert,
  Box,
  Button,
  Chip,
  CircularProgress,
  Dialog,
  DialogActions,
  DialogContent,
  DialogContentText,
  DialogTitle,
  Link,
  Table,
  TableBody,
  TableCell,
  TableContainer,
  TableHead,
  TableRow,
  TextField,
  Typography,
} from '@mui/material';
import { useQueryClient } from '@tanstack/react-query';
import { useId, useState, type FormEvent } from 'react';
import { useDataProvider, useNotify } from 'react-admin';
import type { AdminTrainingsResponse, AdminTrainingView } from '../../../events/training';
import { DEFAULT_TRAINING_STEPS, MAX_TRAINING_STEPS, MIN_TRAINING_STEPS } from '../../../events/training-values';
import { ConfirmDialog } from '../common/ConfirmDialog';
import { Fields, Section } from '../common/DetailSection';
import { formatDateTime } from '../common/format';
import type { ConsoleDataProvider } from '../dataProvider';
import { errorText } from '../common/errorText';
import { Loaded } from '../common/Loaded';
import { useConsoleQuery } from '../common/useConsoleQuery';
import { canRollBack, costText, durationText, isRunningTraining, MODEL_STATE_LABELS, REASON_LABELS, retrainRequest, TRAINING_STATUS_LABELS } from './labels';

/** Read by screen readers only. */
const visuallyHidden = { position: 'absolute', width: 1, height: 1, overflow: 'hidden', clip: 'rect(0 0 0 0)', whiteSpace: 'nowrap' } as const;

/**
 * A talent's likeness model trainings on their console page (docs/training.md#routes): the model,
 * every training (status, started, duration, cost in dollars, logs, the live version marked),
 * "Retrain" with other steps in a dialog and "Roll back" on an earlier approved version behind a
 * confirmation. Pessimistic: the list changes once the API has answered; its refusals show in
 * the dialog that asked.
 */
export function TrainingsSection({ talentId }: { talentId: string }) {
  const dataProvider = useDataProvider<ConsoleDataProvider>();
  const notify = useNotify();
  const queryClient = useQueryClient();
  const id = useId();
  const [retraining, setRetraining] = useState(false);
  const [rollingBack, setRollingBack] = useState<AdminTrainingView>();

  const trainings = useConsoleQuery({
    queryKey: ['trainings', talentId],
    read: () => dataProvider.getTrainings(talentId),
    isAnswer: (data) => Array.isArray(data.trainings),
    forbidden: 'You do not have access to trainings.',
    failed: 'The trainings could not be loaded.',
  });
  const reload = () => void trainings.refetch();

  const running = trainings.data?.trainings.some(isRunningTraining) ?? false;
  const action = trainings.data ? (
    <Box sx={{ display: 'flex', gap: 1, alignItems: 'center', flexWrap: 'wrap' }}>
      <Button size="small" onClick={reload}>
        Refresh
      </Button>
      <Button variant="contained" size="small" onClick={() => setRetraining(true)} disabled={running} title={running ? 'A training is running: wait until it has finished.' : undefined}>
        Retrain
      </Button>
    </Box>
  ) : undefined;

  return (
    <Box sx={{ mt: 2 }} data-testid="trainings-section">
      <Section title="Likeness model trainings" id={`${id}-title`} action={action}>
        <Loaded query={trainings} loading="Loading the trainings…">
          {(data) => (
            <>
              <Fields
                rows={[
                  ['Model', MODEL_STATE_LABELS[data.state]],
                  ['On Replicate', data.model],
                  ['Trigger word', data.triggerWord],
                  ['Talent’s rejections', `${data.rejections} (retrains left to the talent: ${data.retrainsLeft})`],
                ]}
              />
              {running && (
                <Alert severity="info" sx={{ mt: 2 }}>
                  A training is running. Refresh to see where it stands; Retrain is possible once it has finished.
                </Alert>
              )}
              {data.trainings.length === 0 ? (
                <Box color="text.secondary" sx={{ mt: 2 }}>
                  No trainings yet{data.state === 'none' ? ': this talent’s generation config was set by hand.' : '.'}
                </Box>
              ) : (
                <TrainingsTable trainings={data.trainings} onRollBack={setRollingBack} />
              )}
            </>
          )}
        </Loaded>
      </Section>

      {retraining && (
        <RetrainDialog
          talentId={talentId}
          onClose={() => setRetraining(false)}
          onDone={(number) => {
            setRetraining(false);
            notify(`Training #${number} started.`, { type: 'success' });
            reload();
          }}
        />
      )}
      {rollingBack && (
        <RollbackDialog
          talentId={talentId}
          training={rollingBack}
          titleId={`${id}-rollback`}
          onClose={() => setRollingBack(undefined)}
          onDone={(next) => {
            setRollingBack(undefined);
            queryClient.setQueryData(['console', 'trainings', talentId], next);
            notify(`Training #${rollingBack.number}'s version is live again.`, { type: 'success' });
          }}
        />
      )}
    </Box>
  );
}

function TrainingsTable({ trainings, onRollBack }: { trainings: AdminTrainingView[]; onRollBack: (t: AdminTrainingView) => void }) {
  return (
    <TableContainer sx={{ mt: 2, overflowX: 'auto' }}>
      <Table size="small" aria-label="Trainings, newest first" data-testid="trainings">
        <TableHead>
          <TableRow>
            <TableCell>#</TableCell>
            <TableCell>Status</TableCell>
            <TableCell>Why</TableCell>
            <TableCell>Started</TableCell>
            <TableCell>Duration</TableCell>
            <TableCell align="right">Cost</TableCell>
            <TableCell align="right">Steps</TableCell>
            <TableCell>Logs</TableCell>
            <TableCell>
              <Box component="span" sx={visuallyHidden}>{`Actions`}</Box>
            </TableCell>
          </TableRow>
        </TableHead>
        <TableBody>
          {trainings.map((t) => {
            const status = TRAINING_STATUS_LABELS[t.status];
            const details = Boolean(t.version) || t.imageCount !== undefined || t.samples.length > 0;
            return [
              <TableRow
                key={t.id}
                data-testid="training"
                data-training={t.id}
                data-status={t.status}
                selected={t.live}
                sx={details ? { '& > td': { borderBottom: 0 } } : undefined}
              >
                <TableCell>{t.number}</TableCell>
                <TableCell>
                  <Box sx={{ display: 'flex', gap: 0.5, flexWrap: 'wrap' }}>
                    <Chip size="small" color={status.color} label={status.label} />
                    {t.live && <Chip size="small" color="success" variant="outlined" label="Live version" data-testid="training-live" />}
                    {t.deletedAt && <Chip size="small" variant="outlined" label="Deleted from Replicate" />}
                  </Box>
                  {t.failure && (
                    <Typography variant="body2" color="error" sx={{ mt: 0.5 }}>
                      {t.failure.message}
                    </Typography>
                  )}
                  {t.review?.note && (
                    <Typography variant="body2" color="text.secondary" sx={{ mt: 0.5 }}>
                      Talent: “{t.review.note}”
                    </Typography>
                  )}
                  {t.restored && (
                    <Typography variant="body2" color="text.secondary" sx={{ mt: 0.5 }}>
                      Put back live by {t.restored.by}, {formatDateTime(t.restored.at)}
                    </Typography>
                  )}
                </TableCell>
                <TableCell>
                  {REASON_LABELS[t.reason]}
                  {t.requestedBy && (
                    <Typography variant="body2" color="text.secondary">
                      by {t.requestedBy}
                      {t.note ? `: ${t.note}` : ''}
                    </Typography>
                  )}
                </TableCell>
                <TableCell>{formatDateTime(t.startedAt ?? t.createdAt)}</TableCell>
                <TableCell>{durationText(t.durationSeconds) || '—'}</TableCell>
                <TableCell align="right">{costText(t.costMicros) || '—'}</TableCell>
                <TableCell align="right">{t.steps ?? '—'}</TableCell>
                <TableCell>
                  {t.logsUrl ? (
                    <Link href={t.logsUrl} target="_blank" rel="noopener noreferrer">
                      Logs<Box component="span" sx={visuallyHidden}>{` of training #${t.number} (opens Replicate)`}</Box>
                    </Link>
                  ) : (
                    '—'
                  )}
                </TableCell>
                <TableCell>
                  {canRollBack(t) && (
                    <Button size="small" onClick={() => onRollBack(t)}>
                      Roll back<Box component="span" sx={visuallyHidden}>{` to training #${t.number}`}</Box>
                    </Button>
                  )}
                </TableCell>
              </TableRow>,
              details && (
                <TableRow key={`${t.id}-details`} data-testid="training-details" selected={t.live}>
                  <TableCell />
                  <TableCell colSpan={COLUMNS - 1} sx={{ pt: 0 }}>
                    <TrainingDetails training={t} />
                  </TableCell>
                </TableRow>
              ),
            ];
          })}
        </TableBody>
      </Table>
    </TableContainer>
  );
}

/** The table's number of columns (the details row spans all but the first). */
const COLUMNS = 9;

/**
 * Under a training's row: the photos it learnt from, the version it made (what the catalog's
 * generation config holds once it is live) and its samples, as the talent saw them for review.
 */
function TrainingDetails({ training: t }: { training: AdminTrainingView }) {
  return (
    <Box sx={{ display: 'flex', flexDirection: 'column', gap: 1 }}>
      <Typography variant="body2" color="text.secondary" component="div">
        {t.imageCount !== undefined && <Box component="span" sx={{ mr: 2 }}>{`${t.imageCount} photos`}</Box>}
        {t.version && (
          <>
            Version{' '}
            <Box component="code" sx={{ fontSize: '0.8rem', overflowWrap: 'anywhere', color: 'text.primary' }} data-testid="training-version">
              {t.version}
            </Box>
          </>
        )}
      </Typography>
      {t.samples.length > 0 && (
        <Box component="ul" aria-label={`Samples of training #${t.number}`} sx={{ display: 'flex', flexWrap: 'wrap', gap: 1, m: 0, p: 0, listStyle: 'none' }}>
          {t.samples.map((s, i) => (
            <li key={s.url}>
              <Link href={s.url} target="_blank" rel="noopener noreferrer" title={s.prompt}>
                <Box
                  component="img"
                  src={s.url}
                  alt={`Sample ${i + 1} of training #${t.number}: ${s.prompt}`}
                  loading="lazy"
                  width={72}
                  height={72}
                  sx={{ display: 'block', width: 72, height: 72, objectFit: 'cover', borderRadius: 1, bgcolor: 'action.hover' }}
                  data-testid="training-sample"
                />
              </Link>
            </li>
          ))}
        </Box>
      )}
    </Box>
  );
}

/** "Retrain" with other settings: the steps (the stage's when empty) and why; the API's refusal shows inside. */
function RetrainDialog({ talentId, onClose, onDone }: { talentId: string; onClose: () => void; onDone: (number: number) => void }) {
  const dataProvider = useDataProvider<ConsoleDataProvider>();
  const id = useId();
  const [form, setForm] = useState({ steps: '', note: '' });
  const [errors, setErrors] = useState<{ steps?: string; note?: string }>({});
  const [error, setError] = useState<string>();
  const [pending, setPending] = useState(false);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const checked = retrainRequest(form);
    if ('errors' in checked) {
      setErrors(checked.errors);
      return;
    }
    setErrors({});
    setError(undefined);
    setPending(true);
    try {
      const { data } = await dataProvider.retrainLikeness(talentId, checked.request);
      onDone(data.number);
    } catch (err) {
      setError(errorText(err, 'The training could not be started.'));
      setPending(false);
    }
  };

  return (
    <Dialog open onClose={pending ? undefined : onClose} aria-labelledby={`${id}-title`} fullWidth maxWidth="sm">
      <form onSubmit={(e) => void submit(e)} noValidate>
        <DialogTitle id={`${id}-title`}>Retrain the likeness model</DialogTitle>
        <DialogContent>
          <DialogContentText sx={{ mb: 2 }}>
            A new training from the talent’s accepted photos. Clients keep the live version until the talent approves the new one; the talent is emailed when its samples are ready.
          </DialogContentText>
          <TextField
            label="Steps"
            value={form.steps}
            onChange={(e) => setForm((f) => ({ ...f, steps: e.target.value }))}
            error={Boolean(errors.steps)}
            helperText={errors.steps ?? `From ${MIN_TRAINING_STEPS} to ${MAX_TRAINING_STEPS}; empty: the stage’s (${DEFAULT_TRAINING_STEPS} by default).`}
            slotProps={{ htmlInput: { inputMode: 'numeric' } }}
            disabled={pending}
            fullWidth
            sx={{ mb: 2 }}
          />
          <TextField
            label="Why (shown in the list)"
            value={form.note}
            onChange={(e) => setForm((f) => ({ ...f, note: e.target.value }))}
            error={Boolean(errors.note)}
            helperText={errors.note}
            disabled={pending}
            multiline
            minRows={2}
            fullWidth
          />
          {error && (
            <Alert severity="error" sx={{ mt: 2 }} role="alert">
              {error}
            </Alert>
          )}
        </DialogContent>
        <DialogActions>
          <Button onClick={onClose} disabled={pending}>
            Cancel
          </Button>
          <Button type="submit" variant="contained" disabled={pending} startIcon={pending ? <CircularProgress size={16} /> : undefined}>
            Start training
          </Button>
        </DialogActions>
      </form>
    </Dialog>
  );
}

/** "Roll back": an earlier approved version goes back live, once confirmed; the API's refusal shows inside. */
function RollbackDialog({
  talentId,
  training,
  titleId,
  onClose,
  onDone,
}: {
  talentId: string;
  training: AdminTrainingView;
  titleId: string;
  onClose: () => void;
  onDone: (next: AdminTrainingsResponse) => void;
}) {
  const dataProvider = useDataProvider<ConsoleDataProvider>();
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<string>();
  const confirm = async () => {
    setPending(true);
    setError(undefined);
    try {
      const { data } = await dataProvider.rollbackTraining(talentId, training.id);
      onDone(data);
    } catch (err) {
      setError(errorText(err, 'The version could not be put back live.'));
      setPending(false);
    }
  };
  return (
    <ConfirmDialog open titleId={titleId} title={`Put training #${training.number}'s version back live?`} confirm="Roll back" pending={pending} onConfirm={() => void confirm()} onClose={onClose}>
      <DialogContentText>
        Clients generate with this version again from now on{training.approvedAt ? ` (the talent approved it ${formatDateTime(training.approvedAt)})` : ''}. The version live now stays on
        Replicate and can be put back the same way.
      </DialogContentText>
      {training.version && (
        <Typography variant="body2" color="text.secondary" sx={{ mt: 1, overflowWrap: 'anywhere' }}>
          {training.version}
        </Typography>
      )}
      {error && (
        <Alert severity="error" sx={{ mt: 2 }} role="alert">
          {error}
        </Alert>
      )}
    </ConfirmDialog>
  );
}
