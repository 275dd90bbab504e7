import * as z from 'zod';
import { requireGroup } from '../../../shared/auth';
import { documentClient } from '../../../shared/clients';
import { loadConfig } from '../../../shared/config';
import { imageSigner } from '../../views';
import { httpHandler, json } from '../../../shared/http';
import { s3Bucket } from '../../../shared/s3';
import { generationStore } from '../../store';
import { adminLicenseDownload } from './service';

const config = loadConfig(z.object({ GENERATIONS_TABLE: z.string().min(1), IMAGES_BUCKET: z.string().min(1) }));

/** `GET /admin/licenses/{id}/download` (admins): any license's file, as the owner's download. */
export const handler = httpHandler(async (event) => {
  const caller = requireGroup(event, 'admin');
  const deps = { generations: generationStore(documentClient(), config.GENERATIONS_TABLE), signer: imageSigner(s3Bucket(config.IMAGES_BUCKET)) };
  return json(200, await adminLicenseDownload(deps, event.pathParameters?.id ?? '', caller.sub));
});
