import type { EventBridgeEvent } from 'aws-lambda';
import * as z from 'zod';
import { documentClient } from '../../../shared/clients';
import { loadConfig } from '../../../shared/config';
import { s3Bucket } from '../../../shared/s3';
import { reportStore } from '../../store';
import { indexDeliveredImage, type ObjectCreatedDetail } from './service';

const config = loadConfig(z.object({ REPORTS_TABLE: z.string().min(1), IMAGES_BUCKET: z.string().min(1) }));

/** S3 `Object Created` (via EventBridge) under the images bucket's `generations/` prefix. */
export const handler = async (event: EventBridgeEvent<'Object Created', ObjectCreatedDetail>) => {
  const outcome = await indexDeliveredImage({ store: reportStore(documentClient(), config.REPORTS_TABLE), images: s3Bucket(config.IMAGES_BUCKET) }, event.detail);
  return { outcome };
};
