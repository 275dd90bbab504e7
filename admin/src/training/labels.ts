// The console's words for a talent's trainings (docs/training.md#routes): statuses, reasons,
// durations, costs in dollars, which versions can go back live, and the retrain form's request.
// Plain functions, tested under node.
import type { AdminTrainingView, RetrainRequest } from '../../../events/training';
import {
  MAX_TRAINING_STEPS,
  MIN_TRAINING_STEPS,
  RUNNING_TRAINING_STATUSES,
  type ModelState,
  type TrainingReason,
  type TrainingStatus,
} from '../../../events/training-values';

type Color = 'default' | 'info' | 'warning' | 'success' | 'error';

export const TRAINING_STATUS_LABELS: Record<TrainingStatus, { label: string; color: Color }> = {
  preparing: { label: 'Preparing', color: 'info' },
  training: { label: 'Training', color: 'info' },
  sampling: { label: 'Making samples', color: 'info' },
  'ready-for-review': { label: 'Waiting for the talent', color: 'warning' },
  approved: { label: 'Approved', color: 'success' },
  rejected: { label: "Rejected: \"This isn't me\"", color: 'default' },
  failed: { label: 'Failed', color: 'error' },
};

export const MODEL_STATE_LABELS: Record<ModelState, string> = {
  none: 'No trained model (configured by hand)',
  preparing: 'Preparing the first training',
  training: 'First training running',
  'ready-for-review': 'Waiting for the talent’s review',
  live: 'Live',
  retraining: 'Retraining',
  failed: 'Failed: the console decides',
};

export const REASON_LABELS: Record<TrainingReason, string> = {
  acceptance: 'Acceptance',
  rejected: 'Talent said "This isn\'t me"',
  console: 'Console retrain',
};

/** A duration in seconds as "14 min 5 s" (or "45 s", "1 h 2 min"). */
export function durationText(seconds: number | undefined): string {
  if (seconds === undefined || !Number.isFinite(seconds) || seconds < 0) return '';
  const s = Math.round(seconds);
  if (s < 60) return `${s} s`;
  if (s < 3600) return `${Math.floor(s / 60)} min${s % 60 ? ` ${s % 60} s` : ''}`;
  const minutes = Math.floor((s % 3600) / 60);
  return `${Math.floor(s / 3600)} h${minutes ? ` ${minutes} min` : ''}`;
}

/** A cost in micro-dollars as dollars and cents ("$1.83"); under a cent, "under $0.01". */
export function costText(micros: number | undefined): string {
  if (micros === undefined || !Number.isInteger(micros) || micros < 0) return '';
  if (micros > 0 && micros < 5_000) return 'under $0.01';
  const cents = Math.round(micros / 10_000);
  return `$${Math.floor(cents / 100).toLocaleString('en-US')}.${String(cents % 100).padStart(2, '0')}`;
}

/** A training still runs: another one must wait. */
export const isRunningTraining = (t: Pick<AdminTrainingView, 'status'>) => RUNNING_TRAINING_STATUSES.includes(t.status);

/** A version the talent approved, not live now and still on Replicate: it can go back live. */
export const canRollBack = (t: AdminTrainingView) => t.status === 'approved' && !t.live && !t.deletedAt;

/** The retrain form's fields as the request, or what is wrong with each. */
export function retrainRequest(form: { steps: string; note: string }): { request: RetrainRequest } | { errors: { steps?: string; note?: string } } {
  const request: RetrainRequest = {};
  const errors: { steps?: string; note?: string } = {};
  const steps = form.steps.trim();
  if (steps) {
    const n = Number(steps);
    if (!/^\d+$/.test(steps) || !Number.isSafeInteger(n)) errors.steps = 'Steps must be a whole number.';
    else if (n < MIN_TRAINING_STEPS || n > MAX_TRAINING_STEPS) errors.steps = `Steps must be from ${MIN_TRAINING_STEPS} to ${MAX_TRAINING_STEPS}.`;
    else request.steps = n;
  }
  const note = form.note.trim();
  if (note.length > 2000) errors.note = 'The note must be at most 2000 characters.';
  else if (note) request.note = note;
  return Object.keys(errors).length ? { errors } : { request };
}
