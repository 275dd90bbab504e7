import type { PostAuthenticationTriggerEvent } from 'aws-lambda';
import * as z from 'zod';
import { documentClient } from '../../../shared/clients';
import { loadConfig } from '../../../shared/config';
import { log } from '../../../shared/log';
import { accountStore, type AccountStore } from '../../store';

const config = loadConfig(z.object({ ACCOUNTS_TABLE: z.string().min(1) }));

/**
 * Records the sign-in on the person's profile (`lastSignInAt`): the Free plan's monthly credits go
 * to accounts that signed in during the month before (decision 043). A sign-in never fails
 * because of it: Cognito would refuse the sign-in if this trigger threw, so a failure is logged.
 */
export async function recordSignIn(deps: { accounts: Pick<AccountStore, 'recordSignIn'> }, event: PostAuthenticationTriggerEvent): Promise<void> {
  const id = event.request?.userAttributes?.sub;
  if (!id) return;
  try {
    await deps.accounts.recordSignIn(id);
  } catch (err) {
    log.error('a sign-in could not be recorded', err, { sub: id });
  }
}

/** Cognito post-authentication: after every successful sign-in. */
export async function handler(event: PostAuthenticationTriggerEvent): Promise<PostAuthenticationTriggerEvent> {
  await recordSignIn({ accounts: accountStore(documentClient(), config.ACCOUNTS_TABLE) }, event);
  return event;
}
