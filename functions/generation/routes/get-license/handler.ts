import * as z from 'zod';
import { documentClient } from '../../../shared/clients';
import { loadConfig } from '../../../shared/config';
import { httpHandler, json } from '../../../shared/http';
import { generationStore } from '../../store';
import { confirmLicense } from './service';

const config = loadConfig(z.object({ GENERATIONS_TABLE: z.string().min(1) }));

/** Seconds browsers and CDNs may reuse a license confirmation: short, like the catalog. */
const LICENSE_CACHE_SECONDS = 60;

/** `GET /licenses/{id}` (anyone): a license's confirmation, cached briefly. */
export const handler = httpHandler(async (event) => {
  const view = await confirmLicense(generationStore(documentClient(), config.GENERATIONS_TABLE), event.pathParameters?.id ?? '');
  return json(200, view, { 'cache-control': `public, max-age=${LICENSE_CACHE_SECONDS}` });
});
