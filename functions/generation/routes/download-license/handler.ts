import * as z from 'zod';
import { accountStore } from '../../../accounts';
import { requireRole } from '../../../shared/auth';
import { documentClient } from '../../../shared/clients';
import { loadConfig } from '../../../shared/config';
import { imageSigner } from '../../views';
import { httpHandler, json } from '../../../shared/http';
import { s3Bucket } from '../../../shared/s3';
import { generationStore } from '../../store';
import { myLicenseDownload } from './service';

const config = loadConfig(z.object({ ACCOUNTS_TABLE: z.string().min(1), GENERATIONS_TABLE: z.string().min(1), IMAGES_BUCKET: z.string().min(1) }));

/** `GET /licenses/{id}/download` (the owner): `{url, filename, expiresAt}`, the URL valid 5 minutes; 404 for anyone else's license. */
export const handler = httpHandler(async (event) => {
  const caller = requireRole(event, 'client');
  const doc = documentClient();
  const deps = { accounts: accountStore(doc, config.ACCOUNTS_TABLE), generations: generationStore(doc, config.GENERATIONS_TABLE), signer: imageSigner(s3Bucket(config.IMAGES_BUCKET)) };
  return json(200, await myLicenseDownload(deps, caller, event.pathParameters?.id ?? ''));
});
