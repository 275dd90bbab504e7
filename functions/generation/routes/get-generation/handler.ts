import * as z from 'zod';
import { accountStore, currentAccount } from '../../../accounts';
import { requireRole } from '../../../shared/auth';
import { documentClient } from '../../../shared/clients';
import { loadConfig } from '../../../shared/config';
import { generationView, ownGeneration, imageSigner } from '../../views';
import { httpHandler, json } from '../../../shared/http';
import { s3Bucket } from '../../../shared/s3';
import { generationStore } from '../../store';

const config = loadConfig(z.object({ ACCOUNTS_TABLE: z.string().min(1), GENERATIONS_TABLE: z.string().min(1), IMAGES_BUCKET: z.string().min(1) }));

/** `GET /generations/{id}` (the owner): the generation with short-lived image URLs; 404 for anyone else's. */
export const handler = httpHandler(async (event) => {
  const caller = requireRole(event, 'client');
  const doc = documentClient();
  const account = await currentAccount(accountStore(doc, config.ACCOUNTS_TABLE), caller);
  const record = await ownGeneration(generationStore(doc, config.GENERATIONS_TABLE), account.id, event.pathParameters?.id ?? '');
  return json(200, await generationView(record, imageSigner(s3Bucket(config.IMAGES_BUCKET))));
});
