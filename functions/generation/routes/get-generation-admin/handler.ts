import * as z from 'zod';
import { requireGroup } from '../../../shared/auth';
import { documentClient } from '../../../shared/clients';
import { loadConfig } from '../../../shared/config';
import { httpHandler, json } from '../../../shared/http';
import { s3Bucket } from '../../../shared/s3';
import { generationStore } from '../../store';
import { imageSigner } from '../../views';
import { generationForAdmin } from './service';

const config = loadConfig(z.object({ GENERATIONS_TABLE: z.string().min(1), IMAGES_BUCKET: z.string().min(1) }));

/** `GET /admin/generations/{id}` (admins): the generation with the workflow's steps, prediction id, credits and the client. */
export const handler = httpHandler(async (event) => {
  requireGroup(event, 'admin');
  const deps = { generations: generationStore(documentClient(), config.GENERATIONS_TABLE), signer: imageSigner(s3Bucket(config.IMAGES_BUCKET)) };
  return json(200, await generationForAdmin(deps, event.pathParameters?.id ?? ''));
});
