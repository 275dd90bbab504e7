import * as z from 'zod';
import { GENERATION_ID_PATTERN, GENERATION_NOT_FOUND_MESSAGE } from '../../../../events/generation-values';
import { requireGroup } from '../../../shared/auth';
import { documentClient } from '../../../shared/clients';
import { loadConfig } from '../../../shared/config';
import { NotFoundError } from '../../../shared/errors';
import { adminGenerationView, imageSigner } from '../../views';
import { httpHandler, json } from '../../../shared/http';
import { s3Bucket } from '../../../shared/s3';
import { generationStore } from '../../store';

const config = loadConfig(z.object({ GENERATIONS_TABLE: z.string().min(1), IMAGES_BUCKET: z.string().min(1) }));

/** `GET /admin/generations/{id}` (admins): the generation with the workflow's steps, prediction id, credits and the client. */
export const handler = httpHandler(async (event) => {
  requireGroup(event, 'admin');
  const id = event.pathParameters?.id ?? '';
  const record = GENERATION_ID_PATTERN.test(id) ? await generationStore(documentClient(), config.GENERATIONS_TABLE).get(id) : undefined;
  if (!record) throw new NotFoundError(GENERATION_NOT_FOUND_MESSAGE);
  return json(200, await adminGenerationView(record, imageSigner(s3Bucket(config.IMAGES_BUCKET))));
});
