import type { EventBridgeEvent } from 'aws-lambda';
import * as z from 'zod';
import { LicenseRevokedV1 } from '../../../../events/reports';
import { documentClient } from '../../../shared/clients';
import { loadConfig } from '../../../shared/config';
import { royaltyStore } from '../../store';
import { takeBackRevokedRoyalty } from './service';

const config = loadConfig(z.object({ GENERATIONS_TABLE: z.string().min(1) }));

/** Consumer of `License.Revoked`: a revocation for the client's breach takes the license's royalty off the talent's next statement. */
export async function handler(event: EventBridgeEvent<'License.Revoked', unknown>) {
  return { outcome: await takeBackRevokedRoyalty(royaltyStore(documentClient(), config.GENERATIONS_TABLE), LicenseRevokedV1.parse(event.detail)) };
}
