import { MIN_TRAINING_IMAGES } from '../../../../events/training-values';
import { applicationPrefix, type FoundingStore } from '../../../founding';
import { log } from '../../../shared/log';
import type { Bucket } from '../../../shared/s3';
import { TooFewPhotos, TrainingNotFound } from '../../errors';
import { trainingSetKey } from '../../keys';
import type { TrainingStore } from '../../store';
import { cropForTraining, trainingZip, usablePhotos } from '../../training-set';

export interface BuildTrainingSetDeps {
  store: Pick<TrainingStore, 'getTraining' | 'updateTraining'>;
  founding: Pick<FoundingStore, 'getApplication'>;
  /** The founding photos bucket (read only). */
  photos: Pick<Bucket, 'read'>;
  /** The training wing's private bucket. */
  sets: Pick<Bucket, 'write'>;
  /** The side of the trainer's square images (stage setting). */
  imageSize: number;
  now: () => Date;
}

/** Photos read and cropped at a time: bounded memory for 80 full-size photos. */
const BATCH = 8;

const isMissing = (err: unknown) => ['NoSuchKey', 'NotFound'].includes((err as Error)?.name);

/**
 * Step BuildTrainingSet: the application's usable photos (docs/training.md "The training set"),
 * cropped square around the face at the trainer's size, re-encoded without metadata and zipped
 * into the training bucket under the training's id. TooFewPhotos when fewer than the trainer's
 * minimum remain. Safe to repeat: the zip is written whole under the same key.
 */
export async function buildTrainingSet(deps: BuildTrainingSetDeps, trainingId: string): Promise<{ imageCount: number }> {
  const training = await deps.store.getTraining(trainingId);
  if (!training) throw new TrainingNotFound(trainingId);
  const application = await deps.founding.getApplication(training.applicationId);
  const photos = usablePhotos(application.photoResults);
  if (photos.length < MIN_TRAINING_IMAGES) throw new TooFewPhotos(photos.length, MIN_TRAINING_IMAGES);

  const images: Buffer[] = [];
  let missing = 0;
  let withFace = 0;
  for (let i = 0; i < photos.length; i += BATCH) {
    const batch = await Promise.all(
      photos.slice(i, i + BATCH).map(async (photo) => {
        try {
          const bytes = await deps.photos.read(`${applicationPrefix(application.id)}photos/${photo.index}.jpg`);
          if (photo.box) withFace++;
          return await cropForTraining(bytes, deps.imageSize, photo.box);
        } catch (err) {
          if (!isMissing(err)) throw err;
          missing++;
          return undefined;
        }
      }),
    );
    images.push(...batch.filter((b): b is Buffer => b !== undefined));
  }
  if (images.length < MIN_TRAINING_IMAGES) throw new TooFewPhotos(images.length, MIN_TRAINING_IMAGES);

  const zipKey = trainingSetKey(trainingId);
  await deps.sets.write(zipKey, trainingZip(images), 'application/zip');
  await deps.store.updateTraining(trainingId, { zipKey, imageCount: images.length, updatedAt: deps.now().toISOString() });
  // Ids and counts only: photos and their keys are personal data.
  log.info('training set built', { trainingId, images: images.length, croppedAtFace: withFace, missing });
  return { imageCount: images.length };
}
