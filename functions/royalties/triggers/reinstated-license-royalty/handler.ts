import type { EventBridgeEvent } from 'aws-lambda';
import * as z from 'zod';
import { LicenseReinstatedV1 } from '../../../../events/reports';
import { documentClient } from '../../../shared/clients';
import { loadConfig } from '../../../shared/config';
import { royaltyStore } from '../../store';
import { giveBackReinstatedRoyalty } from './service';

const config = loadConfig(z.object({ GENERATIONS_TABLE: z.string().min(1) }));

/** Consumer of `License.Reinstated`: a royalty taken back for the revocation comes back on the talent's next statement. */
export async function handler(event: EventBridgeEvent<'License.Reinstated', unknown>) {
  return { outcome: await giveBackReinstatedRoyalty(royaltyStore(documentClient(), config.GENERATIONS_TABLE), LicenseReinstatedV1.parse(event.detail)) };
}
