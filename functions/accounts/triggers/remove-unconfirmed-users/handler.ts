import { CognitoIdentityProviderClient } from '@aws-sdk/client-cognito-identity-provider';
import * as z from 'zod';
import { loadConfig } from '../../../shared/config';
import { poolUsers } from '../../pool-users';
import { removeUnconfirmedUsers } from './service';

const config = loadConfig(z.object({ USER_POOL_ID: z.string().min(1) }));

const ScheduledEvent = z.object({ time: z.string().optional() }).loose();

let cognito: CognitoIdentityProviderClient | undefined;

/** The unconfirmed-users rule's target: an EventBridge Scheduled Event, every hour. */
export async function handler(event: unknown) {
  cognito ??= new CognitoIdentityProviderClient({});
  return removeUnconfirmedUsers({ users: poolUsers(cognito, config.USER_POOL_ID), now: () => new Date() }, ScheduledEvent.parse(event ?? {}));
}
