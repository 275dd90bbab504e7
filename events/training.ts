import * as z from 'zod';

import { MAX_TRAINING_STEPS, MIN_TRAINING_STEPS, MODEL_STATES, TRAINING_FAILURE_CODES, TRAINING_REASONS, TRAINING_STATUSES } from './training-values';

export * from './training-values';

/** `POST /me/likeness-model/reject`: "This isn't me", with what looks wrong (the console reads it). */
export const RejectLikenessModelRequest = z
  .object({
    note: z
      .string({ error: (i) => (i.input === undefined ? 'note is required: say what does not look like you' : 'note must be a string') })
      .trim()
      .min(1, { error: 'note is required: say what does not look like you' })
      .max(2000, { error: 'note must be at most 2000 characters' }),
  })
  .strict();
export type RejectLikenessModelRequest = z.infer<typeof RejectLikenessModelRequest>;

/** `POST /admin/talent/{id}/trainings`: train again, with other settings. */
export const RetrainRequest = z
  .object({
    steps: z
      .number({ error: 'steps must be a number' })
      .int({ error: 'steps must be a whole number' })
      .min(MIN_TRAINING_STEPS, { error: `steps must be at least ${MIN_TRAINING_STEPS}` })
      .max(MAX_TRAINING_STEPS, { error: `steps must be at most ${MAX_TRAINING_STEPS}` })
      .optional(),
    /** Why, for the training list. */
    note: z.string({ error: 'note must be a string' }).trim().max(2000, { error: 'note must be at most 2000 characters' }).optional(),
  })
  .strict();
export type RetrainRequest = z.infer<typeof RetrainRequest>;

const Iso = z.string();

/** A sample image of a version: the prompt it was made from and a short-lived URL. */
const SampleView = z.object({ prompt: z.string(), url: z.string() });
export type SampleView = z.infer<typeof SampleView>;

const TrainingFailureView = z.object({ code: z.enum(TRAINING_FAILURE_CODES), message: z.string(), at: Iso });
export type TrainingFailureView = z.infer<typeof TrainingFailureView>;

/** `GET /me/likeness-model` (and the answer of approve and reject): the caller's own likeness model. */
export const LikenessModelView = z.object({
  state: z.enum(MODEL_STATES),
  /** The latest training, when there is one: its samples once made. */
  latest: z
    .object({
      trainingId: z.string(),
      number: z.number().int(),
      status: z.enum(TRAINING_STATUSES),
      createdAt: Iso,
      readyAt: Iso.optional(),
      samples: z.array(SampleView),
    })
    .optional(),
  /** The version clients generate with, once the talent approved one. */
  live: z.object({ trainingId: z.string(), number: z.number().int(), approvedAt: Iso, samples: z.array(SampleView) }).optional(),
  /** How many more times "This isn't me" starts a new training. */
  retrainsLeft: z.number().int().nonnegative(),
  /** The latest training's failure (state `failed`). */
  failure: TrainingFailureView.optional(),
});
export type LikenessModelView = z.infer<typeof LikenessModelView>;

/** `POST /me/likeness-model/reject`: the model, whether a new training started, and why not when it did not. */
export const RejectLikenessModelAnswer = LikenessModelView.extend({ retraining: z.boolean(), message: z.string().optional() });

/** One training in the console's list (`GET /admin/talent/{id}/trainings`). */
const AdminTrainingView = z.object({
  id: z.string(),
  number: z.number().int(),
  reason: z.enum(TRAINING_REASONS),
  status: z.enum(TRAINING_STATUSES),
  createdAt: Iso,
  /** Who asked for it in the console, and why. */
  requestedBy: z.string().optional(),
  note: z.string().optional(),
  steps: z.number().int().optional(),
  /** `owner/name:version`. */
  trainer: z.string().optional(),
  imageCount: z.number().int().optional(),
  /** On Replicate: when it started and ended, its duration in seconds, its cost in micro-dollars and its logs. */
  startedAt: Iso.optional(),
  completedAt: Iso.optional(),
  durationSeconds: z.number().int().optional(),
  costMicros: z.number().int().optional(),
  logsUrl: z.string().optional(),
  /** The version it made, `owner/name:id`. */
  version: z.string().optional(),
  /** The version is what clients generate with now. */
  live: z.boolean(),
  approvedAt: Iso.optional(),
  review: z.object({ decision: z.enum(['approved', 'rejected']), note: z.string().optional(), at: Iso }).optional(),
  failure: TrainingFailureView.optional(),
  /** When the console put this version back live after a later one, and who. */
  restored: z.object({ at: Iso, by: z.string() }).optional(),
  /** The version was deleted from Replicate (removal or erasure). */
  deletedAt: Iso.optional(),
  samples: z.array(SampleView),
});
export type AdminTrainingView = z.infer<typeof AdminTrainingView>;

export const AdminTrainingsResponse = z.object({
  talentId: z.string(),
  state: z.enum(MODEL_STATES),
  /** The talent's private model on Replicate, `owner/name`, and their trigger word. */
  model: z.string().optional(),
  triggerWord: z.string().optional(),
  rejections: z.number().int(),
  retrainsLeft: z.number().int(),
  /** Newest first. */
  trainings: z.array(AdminTrainingView),
});
export type AdminTrainingsResponse = z.infer<typeof AdminTrainingsResponse>;

/** `POST /admin/talent/{id}/trainings` -> 202. */
export const RetrainAnswer = z.object({ talentId: z.string(), trainingId: z.string(), number: z.number().int() });
export type RetrainAnswer = z.infer<typeof RetrainAnswer>;
