import * as z from 'zod';
import { documentClient } from '../../../shared/clients';
import { foundingStore } from '../../store';
import { loadConfig } from '../../../shared/config';
import { APPLICATION_ID_PATTERN } from '../../keys';
import { s3Bucket } from '../../../shared/s3';
import { stripeFromEnv } from '../../../shared/stripe';
import { deletePhotos, markPhotosForDeletion } from './service';

const config = loadConfig(z.object({ APPLICATIONS_TABLE: z.string().min(1), PHOTOS_BUCKET: z.string().min(1), STRIPE_SECRET_KEY_SECRET: z.string().min(1) }));

const Input = z.object({ applicationId: z.string().regex(APPLICATION_ID_PATTERN), mark: z.boolean().optional() });

/**
 * Workflow steps DeletePhotos and DeleteInvalidPhotos: `{ applicationId }` → `{ deleted }`;
 * MarkPhotosForDeletion: `{ applicationId, mark: true }` → `{ marked }`.
 */
export async function handler(event: unknown) {
  const { applicationId, mark } = Input.parse(event);
  const deps = { store: foundingStore(documentClient(), config.APPLICATIONS_TABLE), storage: s3Bucket(config.PHOTOS_BUCKET), stripe: stripeFromEnv };
  return mark ? markPhotosForDeletion(deps, applicationId) : deletePhotos(deps, applicationId);
}
