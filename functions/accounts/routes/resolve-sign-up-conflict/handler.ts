import { CognitoIdentityProviderClient } from '@aws-sdk/client-cognito-identity-provider';
import * as z from 'zod';
import { SignUpConflictRequest } from '../../../../events/sign-up';
import { documentClient } from '../../../shared/clients';
import { loadConfig } from '../../../shared/config';
import { EmailConfig, emailSender } from '../../../shared/email';
import { httpHandler, json, parseJsonBody } from '../../../shared/http';
import { clientIpOf, rateLimiter } from '../../../shared/rate-limit';
import { poolUsers } from '../../pool-users';
import { resolveSignUpConflict } from './service';

const config = loadConfig(EmailConfig.extend({ USER_POOL_ID: z.string().min(1), RATE_LIMITS_TABLE: z.string().min(1) }));

let cognito: CognitoIdentityProviderClient | undefined;

/** `POST /sign-up-conflicts` (public): a sign-up refused because the address is taken; 202 `{ received: true }` whatever the address. */
export const handler = httpHandler(async (event) => {
  const request = parseJsonBody(event, SignUpConflictRequest);
  cognito ??= new CognitoIdentityProviderClient({});
  const { response } = await resolveSignUpConflict(
    {
      users: poolUsers(cognito, config.USER_POOL_ID),
      send: emailSender(config),
      limit: rateLimiter(documentClient(), config.RATE_LIMITS_TABLE),
      siteUrl: config.SITE_URL,
    },
    request,
    { ip: clientIpOf(event) },
  );
  return json(202, response);
});
