import * as z from 'zod';
import { requireGroup } from '../../../shared/auth';
import { documentClient } from '../../../shared/clients';
import { loadConfig } from '../../../shared/config';
import { httpHandler, json } from '../../../shared/http';
import { s3Bucket } from '../../../shared/s3';
import { foundingStore } from '../../store';
import { getApplication } from './service';

const config = loadConfig(
  z.object({
    APPLICATIONS_TABLE: z.string().min(1),
    PHOTOS_BUCKET: z.string().min(1),
  }),
);

/** `GET /admin/applications/{id}` (admins): the application, its history and photo URLs. */
export const handler = httpHandler(async (event) => {
  requireGroup(event, 'admin');
  const detail = await getApplication(
    { store: foundingStore(documentClient(), config.APPLICATIONS_TABLE), photos: s3Bucket(config.PHOTOS_BUCKET) },
    event.pathParameters?.id ?? '',
  );
  return json(200, detail);
});
