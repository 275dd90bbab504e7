import type { EventBridgeEvent } from 'aws-lambda';
import * as z from 'zod';
import { PaymentsSpentCreditsRefundedV1 } from '../../../../events/payment-events';
import { documentClient } from '../../../shared/clients';
import { loadConfig } from '../../../shared/config';
import { royaltyStore } from '../../store';
import { takeBackRoyalties } from './service';

const config = loadConfig(z.object({ GENERATIONS_TABLE: z.string().min(1) }));

/** Consumer of `Payments.SpentCreditsRefunded`: the royalties of the refunded images come off the talent's next statement. */
export async function handler(event: EventBridgeEvent<'Payments.SpentCreditsRefunded', unknown>) {
  return takeBackRoyalties(royaltyStore(documentClient(), config.GENERATIONS_TABLE), PaymentsSpentCreditsRefundedV1.parse(event.detail));
}
