/**
 * Plain values of the likeness model's training (docs/training.md): the states a talent and the
 * console read, the texts they show, the workflow's bounds and the stage settings' defaults.
 * Free of zod, so the site and the console can import them without the validation library.
 */

/** `trn_` and 20 random base32 characters: no personal data in a training's id, its keys or its URLs. */
export const TRAINING_ID_PATTERN = /^trn_[a-z2-7]{20}$/;

/**
 * The likeness model as its talent sees it (`GET /me/likeness-model`): `none` when the talent has
 * no trained model (seeded talent, configured by hand); `preparing` while the first training's set
 * is built and sent; `training` while Replicate trains it and the samples are made;
 * `ready-for-review` when the samples wait for the talent's decision; `live` when an approved
 * version is what clients generate with; `retraining` while a later training runs (after "This
 * isn't me", or the console's); `failed` when the last training failed, or the talent turned down
 * every retraining they had, with no approved version to fall back on: the team takes it from there.
 */
export const MODEL_STATES = ['none', 'preparing', 'training', 'ready-for-review', 'live', 'retraining', 'failed'] as const;
export type ModelState = (typeof MODEL_STATES)[number];

/**
 * One training as the console lists it: `preparing` (the set is built, the destination model made,
 * the training started), `training` (on Replicate), `sampling` (the new version's sample images),
 * `ready-for-review`, then `approved` or `rejected` by the talent; `failed` with a failure code.
 */
export const TRAINING_STATUSES = ['preparing', 'training', 'sampling', 'ready-for-review', 'approved', 'rejected', 'failed'] as const;
export type TrainingStatus = (typeof TRAINING_STATUSES)[number];
/** A training in one of these is still running: another one for the same talent must wait. */
export const RUNNING_TRAINING_STATUSES: readonly TrainingStatus[] = ['preparing', 'training', 'sampling'];

/** Why a training was started: the application's acceptance, the talent's "This isn't me", or the console. */
export const TRAINING_REASONS = ['acceptance', 'rejected', 'console'] as const;
export type TrainingReason = (typeof TRAINING_REASONS)[number];

/** Why a training failed; the console shows the text beside the code. */
export const TRAINING_FAILURE_CODES = ['too-few-photos', 'no-talent', 'trainer-failed', 'timed-out', 'error'] as const;
export type TrainingFailureCode = (typeof TRAINING_FAILURE_CODES)[number];
export const TRAINING_FAILURE_TEXTS: Record<TrainingFailureCode, string> = {
  'too-few-photos': 'Too few usable photos to train with (the trainer needs at least 10).',
  'no-talent': 'The accepted application never got its talent in the catalog.',
  'trainer-failed': 'The trainer on Replicate failed or was canceled: its logs say why.',
  'timed-out': 'The training did not finish in time and was canceled on Replicate.',
  error: 'A step of the training failed after its retries: the workflow logs name it.',
};

/** The talent may answer "This isn't me" this many times, each starting a new training; after that the console decides. */
export const MAX_TALENT_RETRAINS = 3;
/** The smallest training set the trainer accepts (ostris/flux-dev-lora-trainer: 10 images). */
export const MIN_TRAINING_IMAGES = 10;

/**
 * Errors of the workflow's steps a retry cannot change (functions/training/errors.ts names them):
 * the state machine records the failure at once.
 */
export const TRAINING_PERMANENT_ERRORS = ['TrainingNotFound', 'ApplicationNotFound', 'TooFewPhotos', 'TrainerFailed', 'LikenessRemoved', 'ZodError'] as const;
/** The error PrepareTraining retries with backoff while the acceptance's steps create the talent. */
export const TALENT_NOT_CREATED_ERROR = 'TalentNotCreated';
/** StartTraining's answer while an earlier create of the same training may still appear on Replicate: retried, spaced out. */
export const START_BUSY_ERROR = 'StartAttemptBusy';

// ---- The workflow's bounds (infra/lib/workflows/likeness-training.ts) ----

/**
 * The acceptance's steps create the talent after the decision: PrepareTraining waits for the
 * application's talent id, retried this often, the pause doubling from the first (about 10 minutes
 * in all), then the training fails with `no-talent`.
 */
export const TALENT_WAIT = { firstPauseSeconds: 10, attempts: 6 } as const;
/** How long the training waits for Replicate's completed webhook before it polls (trainings take 2-30 minutes). */
export const TRAINING_WEBHOOK_WAIT_SECONDS = 15 * 60;
/** Then it reads the training this often, at most this many times: with the wait, at most 90 minutes in all. */
export const TRAINING_POLL_INTERVAL_SECONDS = 60;
export const TRAINING_POLL_MAX_ATTEMPTS = 75;
/** The presigned GET URL of the training set Replicate downloads: valid for an hour. */
export const TRAINING_SET_URL_TTL_SECONDS = 60 * 60;
/** Where the training bucket keeps the training sets (`<prefix><training id>.zip`) and the samples (`<prefix><training id>/<n>.png`). */
export const TRAINING_SETS_PREFIX = 'training-sets/';
export const SAMPLES_PREFIX = 'samples/';
/** The training sets expire from the bucket after this many days (Replicate reads them once, within the hour). */
export const TRAINING_SET_RETENTION_DAYS = 7;
/** Sample images' URLs, for the talent and the console. */
export const SAMPLE_URL_TTL_SECONDS = 10 * 60;

/**
 * The fixed prompts of a new version's sample gallery, each sent after the talent's trigger word
 * as a generation's prompt is (`<trigger word> <prompt>`). They show the face from the front and
 * from the side, in two lights and two settings, so the talent can tell whether the model looks
 * like them.
 */
export const SAMPLE_PROMPTS = [
  'A head-and-shoulders portrait photo, looking at the camera, soft daylight, plain light grey background',
  'A candid photo smiling outdoors in a park, natural light, shallow depth of field',
  'A black and white studio photo in profile, dramatic side light',
  'A photo working at a laptop in a bright modern office, waist up',
] as const;

// ---- Stage settings' defaults (infra/lib/platform/stage-config.ts) ----

/** The trainer (Replicate model `owner/name`) and the version the twin and the dev stages train with. */
export const DEFAULT_TRAINER = 'ostris/flux-dev-lora-trainer';
export const DEFAULT_TRAINER_VERSION = 'e440909d3512c31646ee2e0c7d6f6f4923224863a6a10c494606e79fb5844497';
/** The trainer's input names for what we send: the set's zip URL, the trigger word and the steps. */
export const DEFAULT_TRAINER_INPUTS = { images: 'input_images', triggerWord: 'trigger_word', steps: 'steps' } as const;
export type TrainerInputs = { images: string; triggerWord: string; steps: string };
export const DEFAULT_TRAINING_STEPS = 1000;
/** The trainer's step range (ostris/flux-dev-lora-trainer): the console's retrain refuses others. */
export const MIN_TRAINING_STEPS = 3;
export const MAX_TRAINING_STEPS = 6000;
/** The Replicate account the talent's private models belong to (the twin's emulator: `humanly`). */
export const DEFAULT_MODEL_OWNER = 'humanly';
/** The hardware of the destination models, and whose price a training's time is charged at. */
export const DEFAULT_TRAINING_HARDWARE = 'gpu-h100';
/** The side, in pixels, of the square face-centred crops the set is made of. */
export const DEFAULT_TRAINING_IMAGE_SIZE = 1024;
/**
 * What the licence of the trainer's base model allows (decision 046): `non-commercial` (FLUX.1
 * [dev] under its non-commercial licence: not for a paid service) or `commercial` (the team has
 * confirmed in writing that this trainer and its base model may serve a paid service).
 */
export const TRAINER_LICENCES = ['non-commercial', 'commercial'] as const;
export type TrainerLicence = (typeof TRAINER_LICENCES)[number];

/**
 * Replicate's price of each hardware, in micro-dollars per second (replicate.com/pricing, read
 * 2026-11-27): a training's cost is its `metrics.predict_time` times its hardware's price.
 */
export const HARDWARE_MICROS_PER_SECOND: Record<string, number> = {
  cpu: 100,
  'gpu-t4': 225,
  'gpu-l40s': 975,
  'gpu-a100-large': 1_400,
  'gpu-h100': 1_525,
};

/** A training's cost in whole micro-dollars: Replicate bills by the second. */
export function trainingCostMicros(predictTimeSeconds: number, hardware: string): number | undefined {
  const price = HARDWARE_MICROS_PER_SECOND[hardware];
  if (price === undefined || !Number.isFinite(predictTimeSeconds) || predictTimeSeconds < 0) return undefined;
  return Math.ceil(predictTimeSeconds) * price;
}

// ---- Messages of the routes' refusals ----

export const NO_LIKENESS_MODEL_MESSAGE = 'There is no likeness model for this talent yet.';
export const NOT_READY_FOR_REVIEW_MESSAGE = 'There is no new version of your likeness model waiting for your review.';
export const TRAINING_RUNNING_MESSAGE = 'A training of this likeness model is running: wait until it has finished.';
export const RETRAINS_USED_MESSAGE = `You have asked for ${MAX_TALENT_RETRAINS} new trainings already. Our team will look at your photos and contact you.`;
export const TRAINING_NOT_FOUND_MESSAGE = 'No training with this id for this talent.';
export const NOT_APPROVED_MESSAGE = 'Only a version the talent approved can be put back live.';
export const VERSION_DELETED_MESSAGE = 'This version was deleted from Replicate and cannot be put back live.';
export const LIKENESS_REMOVED_MESSAGE = 'This likeness was removed: its model cannot be trained or put live.';
