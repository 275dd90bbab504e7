import type { EventBridgeEvent } from 'aws-lambda';
import * as z from 'zod';
import { ReportDecidedV1 } from '../../../../events/reports';
import { documentClient } from '../../../shared/clients';
import { loadConfig } from '../../../shared/config';
import { cognitoSignIn } from '../../cognito-sign-in';
import { accountStore } from '../../store';
import { suspendReportedClient } from './service';

const config = loadConfig(z.object({ ACCOUNTS_TABLE: z.string().min(1), USER_POOL_ID: z.string().min(1) }));

/** Rule OnReportDecidedSuspend (`Report.Decided`): a decision to suspend the client disables the client's account. */
export async function handler(event: EventBridgeEvent<string, unknown>) {
  const deps = { accounts: accountStore(documentClient(), config.ACCOUNTS_TABLE), signIn: cognitoSignIn(config.USER_POOL_ID) };
  return { outcome: await suspendReportedClient(deps, ReportDecidedV1.parse(event.detail)) };
}
