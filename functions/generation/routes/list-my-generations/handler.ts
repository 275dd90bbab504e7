import * as z from 'zod';
import { GenerationListQuery } from '../../../../events/generations';
import { accountStore } from '../../../accounts';
import { queryOf } from '../../../shared/admin-list';
import { requireRole } from '../../../shared/auth';
import { documentClient } from '../../../shared/clients';
import { loadConfig } from '../../../shared/config';
import { httpHandler, json, validationErrorFrom } from '../../../shared/http';
import { s3Bucket } from '../../../shared/s3';
import { generationStore } from '../../store';
import { imageSigner } from '../../views';
import { myGenerations } from './service';

const config = loadConfig(z.object({ ACCOUNTS_TABLE: z.string().min(1), GENERATIONS_TABLE: z.string().min(1), IMAGES_BUCKET: z.string().min(1) }));

/** `GET /me/generations?cursor=` (clients): the caller's generations, a page at a time. */
export const handler = httpHandler(async (event) => {
  const caller = requireRole(event, 'client');
  const query = GenerationListQuery.safeParse(queryOf(event));
  if (!query.success) throw validationErrorFrom(query.error);
  const doc = documentClient();
  const deps = { accounts: accountStore(doc, config.ACCOUNTS_TABLE), generations: generationStore(doc, config.GENERATIONS_TABLE), signer: imageSigner(s3Bucket(config.IMAGES_BUCKET)) };
  return json(200, await myGenerations(deps, caller, query.data.cursor));
});
