// What the generation workflow's steps share: the record they act on, and the prediction as the
// workflow passes it between states.
import { createHash } from 'node:crypto';
import { isFinalStatus, type Prediction } from '../shared/replicate';
import type { GenerationStore, StoredPrediction } from './store';
import { GenerationNotFound } from './errors';

/** Replicate's statuses after which a prediction changes no more. */
export const isFinalPrediction = (status: string) => isFinalStatus(status);

/** What AwaitPrediction and PollPrediction answer the state machine (`$.prediction`). */
export interface PredictionOutcome {
  status: string;
  /** Replicate's error text, '' when none (the state machine's paths need the field). */
  error: string;
}

export const outcomeOf = (p: { status: string; error: string | null }): PredictionOutcome => ({ status: p.status, error: p.error ?? '' });

/** A prediction as the generation keeps it: outputs always a list. */
export function storedPrediction(p: Prediction): StoredPrediction {
  const output = Array.isArray(p.output) ? p.output : typeof p.output === 'string' ? [p.output] : [];
  return { id: p.id, status: p.status, output: output.filter((o): o is string => typeof o === 'string'), error: p.error ?? null };
}

/** The generation an execution runs for, with the workflow's own fields; GenerationNotFound when it is gone. */
export async function generationOf(store: Pick<GenerationStore, 'getForWorkflow'>, generationId: string) {
  const generation = await store.getForWorkflow(generationId);
  if (!generation) throw new GenerationNotFound(generationId);
  return generation;
}

/** The ledger keys of a generation's credit changes: a retried step changes the balance once. */
export const reserveKey = (generationId: string) => `gen:${generationId}:reserve`;
export const commitKey = (generationId: string) => `gen:${generationId}:commit`;
export const releaseKey = (generationId: string) => `gen:${generationId}:release`;

/**
 * The model's seed for a generation: derived from its id, so every create of the generation sends
 * the same input, and two generations' inputs differ even for one prompt. It is what tells the
 * generation's prediction apart in Replicate's list when a create's answer was lost (decision 038).
 */
export function predictionSeed(generationId: string): number {
  return createHash('sha256').update(generationId).digest().readUInt32BE(0) & 0x7fffffff;
}
