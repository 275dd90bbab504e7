// What AwaitTraining, PollTraining and the training webhook hand the state machine: Replicate's
// status of the training and its error, '' when none (the state machine's paths need the field).
export interface TrainingOutcome {
  status: string;
  error: string;
}

export const outcomeOf = (t: { status?: string; error?: string | null }): TrainingOutcome => ({ status: t.status ?? 'starting', error: t.error ?? '' });
