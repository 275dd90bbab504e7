// What the training wing's functions read from their environment (the stack sets it from the
// stage config: infra/lib/domains/training.ts), and the input every workflow step takes.
import * as z from 'zod';
import { TRAINING_ID_PATTERN } from '../../events/training-values';
import { positiveIntFromEnv } from '../shared/config';
import { REPLICATE_MODEL, REPLICATE_VERSION_ID } from '../../events/replicate-values';

/** Every step's input: the training the execution runs for. */
export const TrainingInput = z.object({ trainingId: z.string().regex(TRAINING_ID_PATTERN, { error: 'trainingId must be a training id' }) });

export const TrainingTableConfig = z.object({ TRAINING_TABLE: z.string().min(1) });

/**
 * The stage's trainer settings: the trainer and its version, the names of its inputs, the steps,
 * the owner and hardware of the destination models, and the crops' size (StageConfig
 * `likenessTraining`).
 */
export const TrainerConfig = z.object({
  TRAINER: z.string().regex(REPLICATE_MODEL),
  TRAINER_VERSION: z.string().regex(REPLICATE_VERSION_ID),
  TRAINER_INPUTS: z
    .string()
    .transform((s) => JSON.parse(s) as unknown)
    .pipe(z.object({ images: z.string().min(1), triggerWord: z.string().min(1), steps: z.string().min(1) })),
  TRAINING_STEPS: positiveIntFromEnv,
  MODEL_OWNER: z.string().min(1),
  TRAINING_HARDWARE: z.string().min(1),
  TRAINING_IMAGE_SIZE: positiveIntFromEnv,
});
export type TrainerConfig = z.infer<typeof TrainerConfig>;

/** The settings a training runs with: the stage's, with the console's steps when it gave some. */
export function settingsOf(config: TrainerConfig, steps?: number) {
  return {
    trainer: config.TRAINER,
    trainerVersion: config.TRAINER_VERSION,
    steps: steps ?? config.TRAINING_STEPS,
    imageSize: config.TRAINING_IMAGE_SIZE,
    hardware: config.TRAINING_HARDWARE,
  };
}
