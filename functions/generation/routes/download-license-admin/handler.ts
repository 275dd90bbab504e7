import * as z from 'zod';
import { requireGroup } from '../../../shared/auth';
import { documentClient } from '../../../shared/clients';
import { loadConfig } from '../../../shared/config';
import { imageSigner } from '../../views';
import { httpHandler, json } from '../../../shared/http';
import { log } from '../../../shared/log';
import { s3Bucket } from '../../../shared/s3';
import { generationStore } from '../../store';
import { downloadLicense } from '../../license-download';

const config = loadConfig(z.object({ GENERATIONS_TABLE: z.string().min(1), IMAGES_BUCKET: z.string().min(1) }));

/** `GET /admin/licenses/{id}/download` (admins): any license's file, as the owner's download. */
export const handler = httpHandler(async (event) => {
  const caller = requireGroup(event, 'admin');
  const id = event.pathParameters?.id ?? '';
  const download = await downloadLicense(
    { generations: generationStore(documentClient(), config.GENERATIONS_TABLE), signer: imageSigner(s3Bucket(config.IMAGES_BUCKET)) },
    'admin',
    id,
  );
  log.info('license downloaded by an admin', { licenseId: id, by: caller.sub });
  return json(200, download);
});
