import * as z from 'zod';
import { APPLICATION_ID_PATTERN } from '../../keys';
import { documentClient } from '../../../shared/clients';
import { foundingStore } from '../../store';
import { loadConfig, positiveIntFromEnv } from '../../../shared/config';
import { s3Bucket } from '../../../shared/s3';
import { validatePhotos } from './service';

const config = loadConfig(
  z.object({
    APPLICATIONS_TABLE: z.string().min(1),
    PHOTOS_BUCKET: z.string().min(1),
    PHOTO_CONCURRENCY: positiveIntFromEnv.max(16).default(4),
  }),
);

const Input = z.object({ applicationId: z.string().regex(APPLICATION_ID_PATTERN) });

/** Workflow step ValidatePhotos: `{ applicationId }` → `{ applicationId, validCount, rejectedCount, enough }`. */
export async function handler(event: unknown) {
  const { applicationId } = Input.parse(event);
  return validatePhotos(
    {
      store: foundingStore(documentClient(), config.APPLICATIONS_TABLE),
      storage: s3Bucket(config.PHOTOS_BUCKET),
      concurrency: config.PHOTO_CONCURRENCY,
    },
    applicationId,
  );
}
