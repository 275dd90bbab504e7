import * as z from 'zod';
import { documentClient } from '../../../shared/clients';
import { loadConfig } from '../../../shared/config';
import { accountStore } from '../../store';
import { creditLedger } from '../../credits';
import { grantMonthlyAllowance } from './service';

const config = loadConfig(z.object({ ACCOUNTS_TABLE: z.string().min(1) }));

const ScheduledEvent = z.object({ time: z.string().optional() }).loose();

/** The monthly allowance rule's target: an EventBridge Scheduled Event. */
export async function handler(event: unknown) {
  const doc = documentClient();
  return grantMonthlyAllowance(
    { accounts: accountStore(doc, config.ACCOUNTS_TABLE), ledger: creditLedger(doc, config.ACCOUNTS_TABLE), now: () => new Date() },
    ScheduledEvent.parse(event ?? {}),
  );
}
