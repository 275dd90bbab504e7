import * as z from 'zod';
import { accountStore } from '../../../accounts';
import { requireRole } from '../../../shared/auth';
import { documentClient } from '../../../shared/clients';
import { loadConfig } from '../../../shared/config';
import { httpHandler, json } from '../../../shared/http';
import { s3Bucket } from '../../../shared/s3';
import { generationStore } from '../../store';
import { imageSigner } from '../../views';
import { myGeneration } from './service';

const config = loadConfig(z.object({ ACCOUNTS_TABLE: z.string().min(1), GENERATIONS_TABLE: z.string().min(1), IMAGES_BUCKET: z.string().min(1) }));

/** `GET /generations/{id}` (the owner): the generation with short-lived image URLs. */
export const handler = httpHandler(async (event) => {
  const caller = requireRole(event, 'client');
  const doc = documentClient();
  const deps = { accounts: accountStore(doc, config.ACCOUNTS_TABLE), generations: generationStore(doc, config.GENERATIONS_TABLE), signer: imageSigner(s3Bucket(config.IMAGES_BUCKET)) };
  return json(200, await myGeneration(deps, caller, event.pathParameters?.id ?? ''));
});
