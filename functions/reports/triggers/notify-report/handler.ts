import type { Context, EventBridgeEvent } from 'aws-lambda';
import * as z from 'zod';
import { REPORT_DECIDED, REPORT_RECEIVED, ReportDecidedV1, ReportReceivedV1 } from '../../../../events/reports';
import { accountStore } from '../../../accounts';
import { talentStore } from '../../../catalog';
import { ApplicationNotFoundError, foundingStore } from '../../../founding';
import { generationStore } from '../../../generation';
import { documentClient } from '../../../shared/clients';
import { loadConfig } from '../../../shared/config';
import { EmailConfig, emailSender } from '../../../shared/email';
import { idempotency } from '../../../shared/idempotency';
import { reportStore } from '../../store';
import { notifyDecided, notifyReceived, type NotifyDeps } from './service';

const config = loadConfig(
  EmailConfig.extend({
    REPORTS_TABLE: z.string().min(1),
    GENERATIONS_TABLE: z.string().min(1),
    ACCOUNTS_TABLE: z.string().min(1),
    TALENT_TABLE: z.string().min(1),
    APPLICATIONS_TABLE: z.string().min(1),
    IDEMPOTENCY_TABLE: z.string().min(1),
  }),
);
const send = emailSender(config);

/** Consumer of `Report.Received` and `Report.Decided`: the emails to the reporter, the talent and the client, once each. */
export async function handler(event: EventBridgeEvent<string, unknown>, context?: Context) {
  const doc = documentClient();
  const talent = talentStore(doc, config.TALENT_TABLE);
  const founding = foundingStore(doc, config.APPLICATIONS_TABLE);
  const deps: NotifyDeps = {
    store: reportStore(doc, config.REPORTS_TABLE),
    licenses: generationStore(doc, config.GENERATIONS_TABLE),
    accounts: accountStore(doc, config.ACCOUNTS_TABLE),
    talentEmail: async (talentId) => {
      const applicationId = (await talent.getForGeneration(talentId))?.controls.applicationId;
      if (!applicationId) return undefined;
      try {
        return (await founding.getApplication(applicationId)).email;
      } catch (err) {
        if (err instanceof ApplicationNotFoundError) return undefined;
        throw err;
      }
    },
    send,
    once: idempotency(config.IDEMPOTENCY_TABLE, context),
    siteUrl: config.SITE_URL,
  };
  if (event['detail-type'] === REPORT_RECEIVED) await notifyReceived(deps, ReportReceivedV1.parse(event.detail));
  else if (event['detail-type'] === REPORT_DECIDED) await notifyDecided(deps, ReportDecidedV1.parse(event.detail));
}
