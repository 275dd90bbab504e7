import { MAX_TRAINING_STEPS, MIN_TRAINING_STEPS, MODEL_STATES, TRAINING_STATUSES, trainingCostMicros } from '../../../events/training-values';
import type { AdminTrainingView } from '../../../events/training';
import { canRollBack, costText, durationText, isRunningTraining, MODEL_STATE_LABELS, retrainRequest, TRAINING_STATUS_LABELS } from '../../../admin/src/training/labels';

const training = (over: Partial<AdminTrainingView>): AdminTrainingView => ({
  id: 'trn_ghijklmnopqrstuvwxyz',
  number: 1,
  reason: 'acceptance',
  status: 'approved',
  createdAt: '2026-11-23T08:00:00.000Z',
  live: false,
  samples: [],
  ...over,
});

describe('console trainings: words', () => {
  it('names every status and model state', () => {
    for (const s of TRAINING_STATUSES) expect(TRAINING_STATUS_LABELS[s].label).toBeTruthy();
    for (const s of MODEL_STATES) expect(MODEL_STATE_LABELS[s]).toBeTruthy();
  });

  it('writes durations in minutes and seconds', () => {
    expect(durationText(45)).toBe('45 s');
    expect(durationText(845)).toBe('14 min 5 s');
    expect(durationText(1200)).toBe('20 min');
    expect(durationText(3720)).toBe('1 h 2 min');
    expect(durationText(undefined)).toBe('');
  });

  it('writes costs in dollars and cents from micro-dollars', () => {
    // 18 minutes on an H100, as the backend prices a training.
    expect(costText(trainingCostMicros(1080, 'gpu-h100'))).toBe('$1.65');
    expect(costText(2_000_000)).toBe('$2.00');
    expect(costText(1_234_567_890)).toBe('$1,234.57');
    expect(costText(1_525)).toBe('under $0.01');
    expect(costText(0)).toBe('$0.00');
    expect(costText(undefined)).toBe('');
  });

  it('offers a rollback only on an approved version that is not live and still on Replicate', () => {
    expect(canRollBack(training({}))).toBe(true);
    expect(canRollBack(training({ live: true }))).toBe(false);
    expect(canRollBack(training({ deletedAt: '2026-11-24T00:00:00.000Z' }))).toBe(false);
    expect(canRollBack(training({ status: 'rejected' }))).toBe(false);
    expect(TRAINING_STATUSES.filter((status) => isRunningTraining({ status }))).toEqual(['preparing', 'training', 'sampling']);
  });

  it("turns the retrain form into the contract's request, or says what is wrong", () => {
    expect(retrainRequest({ steps: '', note: '' })).toEqual({ request: {} });
    expect(retrainRequest({ steps: ' 1500 ', note: ' Sharper eyes ' })).toEqual({ request: { steps: 1500, note: 'Sharper eyes' } });
    expect(retrainRequest({ steps: '12.5', note: '' })).toEqual({ errors: { steps: 'Steps must be a whole number.' } });
    expect(retrainRequest({ steps: String(MIN_TRAINING_STEPS - 1), note: '' })).toEqual({ errors: { steps: `Steps must be from ${MIN_TRAINING_STEPS} to ${MAX_TRAINING_STEPS}.` } });
    expect(retrainRequest({ steps: String(MAX_TRAINING_STEPS + 1), note: 'x'.repeat(2001) })).toMatchObject({ errors: { steps: expect.any(String), note: 'The note must be at most 2000 characters.' } });
  });
});
