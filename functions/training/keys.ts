// Keys of the Training table and the training bucket (docs/training.md), and the names derived
// from a talent's id. A talent's id carries their name ("maya-chen-3f2a1b"): nothing that reaches
// Replicate, S3's access logs or a log line is built from it as it is.
import { createHash, randomBytes } from 'node:crypto';
import { SAMPLES_PREFIX, TRAINING_SETS_PREFIX } from '../../events/training-values';

/** The index of a talent's trainings, oldest first (`talentKey` = the talent id, `createdAt`). */
export const TRAININGS_BY_TALENT_INDEX = 'byTalent';

const BASE32 = 'abcdefghijklmnopqrstuvwxyz234567';

const base32 = (bytes: Uint8Array, length: number) => Array.from(bytes.subarray(0, length), (b) => BASE32[b & 31]).join('');

/** `trn_` + 20 random base32 characters. */
export const newTrainingId = (): string => `trn_${base32(randomBytes(20), 20)}`;

/**
 * The id of the training an acceptance starts: derived from the application, so a repeated start
 * (an event delivered twice, a step run again) finds the same training.
 */
export const acceptanceTrainingId = (applicationId: string): string =>
  `trn_${base32(createHash('sha256').update(`likeness-training:${applicationId}:1`).digest(), 20)}`;

const digestOf = (talentId: string) => createHash('sha256').update(`likeness-model:${talentId}`).digest();

/**
 * The talent's private model on Replicate, under the stage's owner: named from the talent id
 * through a hash, so Replicate never sees the person's name.
 */
export const replicateModelName = (talentId: string): string => `likeness-${digestOf(talentId).toString('hex').slice(0, 16)}`;

/**
 * The talent's trigger word: the token the trainer teaches to mean this person, and every prompt
 * of theirs starts with. Unique to the talent (a hash of their id), unlike any English word
 * (consonants only, with digits), the same on every training and stage.
 */
export function triggerWordFor(talentId: string): string {
  const consonants = 'BCDFGHJKLMNPQRSTVWXZ';
  const digits = '23456789';
  const d = digestOf(talentId);
  let word = 'HML';
  for (let i = 0; i < 6; i++) word += i % 3 === 2 ? digits[d[i] % digits.length] : consonants[d[i] % consonants.length];
  return word;
}

export const trainingKeys = {
  /** The talent's likeness model: its Replicate model, trigger word, current and live trainings. */
  model: (talentId: string) => ({ pk: `MODEL#${talentId}`, sk: 'MODEL' }),
  /** One training (by its id alone: the webhook and the steps know only that). */
  training: (trainingId: string) => ({ pk: `TRAINING#${trainingId}`, sk: 'TRAINING' }),
  /** The acceptance of an application started its training (the consumer starts it once). */
  acceptance: (applicationId: string) => ({ pk: `APPLICATION#${applicationId}`, sk: 'TRAINING-STARTED' }),
} as const;

/** The training set's zip in the training bucket: by the training's id, never the person's. */
export const trainingSetKey = (trainingId: string) => `${TRAINING_SETS_PREFIX}${trainingId}.zip`;
/** A sample image of the version a training made. */
export const sampleKey = (trainingId: string, index: number) => `${SAMPLES_PREFIX}${trainingId}/${index}.png`;
export const samplesPrefix = (trainingId: string) => `${SAMPLES_PREFIX}${trainingId}/`;

