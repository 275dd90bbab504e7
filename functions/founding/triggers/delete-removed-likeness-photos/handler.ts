import type { EventBridgeEvent } from 'aws-lambda';
import * as z from 'zod';
import { LikenessRemovedV1 } from '../../../../events/likeness-events';
import { documentClient } from '../../../shared/clients';
import { loadConfig } from '../../../shared/config';
import { s3Bucket } from '../../../shared/s3';
import { foundingStore } from '../../store';
import { deleteRemovedLikenessPhotos } from './service';

const config = loadConfig(z.object({ APPLICATIONS_TABLE: z.string().min(1), PHOTOS_BUCKET: z.string().min(1) }));

/** Rule OnLikenessRemoved (`Likeness.Removed`): deletes the photos and face data of the application the talent came from. */
export async function handler(event: EventBridgeEvent<string, unknown>) {
  return deleteRemovedLikenessPhotos({ store: foundingStore(documentClient(), config.APPLICATIONS_TABLE), storage: s3Bucket(config.PHOTOS_BUCKET) }, LikenessRemovedV1.parse(event.detail));
}
