import type { Context, EventBridgeEvent } from 'aws-lambda';
import { RoyaltiesMonthClosedV1 } from '../../../../events/royalty-events';
import { documentClient } from '../../../shared/clients';
import { loadConfig } from '../../../shared/config';
import { emailSender } from '../../../shared/email';
import { PayoutRunConfig, payoutDeps } from '../../wiring';
import { runPayouts } from './service';

const config = loadConfig(PayoutRunConfig);
const send = emailSender(config);

/** Consumer of `Royalties.MonthClosed`: pays the month's statements, once each. */
export async function handler(event: EventBridgeEvent<'Royalties.MonthClosed', unknown>, context?: Context) {
  const { month } = RoyaltiesMonthClosedV1.parse(event.detail);
  return runPayouts(await payoutDeps(documentClient(), config, send, context), month);
}
