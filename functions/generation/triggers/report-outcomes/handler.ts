import type { EventBridgeEvent } from 'aws-lambda';
import * as z from 'zod';
import { LICENSE_REINSTATED, LICENSE_REVOKED, LicenseReinstatedV1, LicenseRevokedV1, REPORT_DECIDED, REPORT_RECEIVED, ReportDecidedV1, ReportReceivedV1 } from '../../../../events/reports';
import { documentClient } from '../../../shared/clients';
import { loadConfig } from '../../../shared/config';
import { generationStore } from '../../store';
import { reinstateReported, revokeReported, settleReported, withholdReported } from './service';

const config = loadConfig(z.object({ GENERATIONS_TABLE: z.string().min(1) }));

/**
 * Consumer of the reports' events (decision 058): `Report.Received` withholds a reported intimate
 * image at once, `License.Revoked` revokes its license, `License.Reinstated` takes a revocation
 * back after an upheld appeal, `Report.Decided` ends a withholding. Each change is repeatable.
 */
export async function handler(event: EventBridgeEvent<string, unknown>) {
  const store = generationStore(documentClient(), config.GENERATIONS_TABLE);
  switch (event['detail-type']) {
    case REPORT_RECEIVED:
      return { outcome: await withholdReported(store, ReportReceivedV1.parse(event.detail)) };
    case LICENSE_REVOKED:
      return { outcome: await revokeReported(store, LicenseRevokedV1.parse(event.detail)) };
    case LICENSE_REINSTATED:
      return { outcome: await reinstateReported(store, LicenseReinstatedV1.parse(event.detail)) };
    case REPORT_DECIDED:
      return { outcome: await settleReported(store, ReportDecidedV1.parse(event.detail)) };
    default:
      return { outcome: 'skipped' };
  }
}
