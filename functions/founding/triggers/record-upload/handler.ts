import type { EventBridgeEvent } from 'aws-lambda';
import * as z from 'zod';
import { documentClient } from '../../../shared/clients';
import { loadConfig } from '../../../shared/config';
import { s3Bucket } from '../../../shared/s3';
import { foundingStore } from '../../store';
import { recordUpload, type ObjectCreatedDetail } from './service';

const config = loadConfig(
  z.object({
    APPLICATIONS_TABLE: z.string().min(1),
    PHOTOS_BUCKET: z.string().min(1),
  }),
);

/** S3 `Object Created` (via EventBridge) for the photos bucket's `pending/` prefix. */
export const handler = async (event: EventBridgeEvent<'Object Created', ObjectCreatedDetail>) => {
  const outcome = await recordUpload(
    { store: foundingStore(documentClient(), config.APPLICATIONS_TABLE), photos: s3Bucket(config.PHOTOS_BUCKET) },
    event.detail,
  );
  return { outcome };
};
