import * as z from 'zod';
import { documentClient } from '../../../shared/clients';
import { loadConfig } from '../../../shared/config';
import { accountStore } from '../../store';
import { creditLedger } from '../../credits';
import { expireCredits } from './service';

const config = loadConfig(z.object({ ACCOUNTS_TABLE: z.string().min(1) }));

/** The credit expiry rule's target: an EventBridge Scheduled Event, once a day. */
export async function handler() {
  const doc = documentClient();
  return expireCredits({ accounts: accountStore(doc, config.ACCOUNTS_TABLE), ledger: creditLedger(doc, config.ACCOUNTS_TABLE) });
}
