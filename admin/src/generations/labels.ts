import { GENERATION_STATUSES, type GenerationStatus } from '../../../events/generation-values';

export const GENERATION_STATUS_LABELS: Record<GenerationStatus, string> = {
  queued: 'Queued',
  starting: 'Starting',
  processing: 'Processing',
  succeeded: 'Succeeded',
  failed: 'Failed',
  canceled: 'Canceled',
};

export const GENERATION_STATUS_COLORS: Record<GenerationStatus, 'default' | 'info' | 'success' | 'error'> = {
  queued: 'default',
  starting: 'info',
  processing: 'info',
  succeeded: 'success',
  failed: 'error',
  canceled: 'default',
};

export const GENERATION_STATUS_CHOICES = GENERATION_STATUSES.map((id) => ({ id, name: GENERATION_STATUS_LABELS[id] }));

/** A workflow step in words: "ReserveCredits" (the state's name) reads "Reserve credits". */
export function stepLabel(step: string): string {
  const words = step
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/[-_]+/g, ' ')
    .trim()
    .toLowerCase();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/** The list filtered to one status, newest first (react-admin's hash route). */
export const generationsWith = (status: GenerationStatus) =>
  `#/generations?filter=${encodeURIComponent(JSON.stringify({ status }))}&order=DESC&sort=createdAt`;
