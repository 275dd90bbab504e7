import type { EventBridgeEvent } from 'aws-lambda';
import * as z from 'zod';
import { ReportDecidedV1 } from '../../../../events/reports';
import { documentClient } from '../../../shared/clients';
import { loadConfig } from '../../../shared/config';
import { talentStore } from '../../store';
import { removeReportedSample } from './service';

const config = loadConfig(z.object({ TALENT_TABLE: z.string().min(1) }));

/** Rule OnReportDecidedSample (`Report.Decided`): a decision to remove a talent's sample takes it off the profile. */
export async function handler(event: EventBridgeEvent<string, unknown>) {
  return { outcome: await removeReportedSample(talentStore(documentClient(), config.TALENT_TABLE), ReportDecidedV1.parse(event.detail)) };
}
