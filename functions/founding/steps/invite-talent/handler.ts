import { CognitoIdentityProviderClient } from '@aws-sdk/client-cognito-identity-provider';
import * as z from 'zod';
import { documentClient } from '../../../shared/clients';
import { foundingStore } from '../../store';
import { loadConfig } from '../../../shared/config';
import { APPLICATION_ID_PATTERN } from '../../keys';
import { inviteTalent } from './service';

const config = loadConfig(z.object({ APPLICATIONS_TABLE: z.string().min(1), USER_POOL_ID: z.string().min(1) }));

const Input = z.object({ applicationId: z.string().regex(APPLICATION_ID_PATTERN), talentId: z.string().min(1) });

let cognito: CognitoIdentityProviderClient | undefined;

/** Workflow step InviteTalent: `{ applicationId, talentId }` → `{ invited: true, existingUser }`. */
export async function handler(event: unknown) {
  const { applicationId, talentId } = Input.parse(event);
  cognito ??= new CognitoIdentityProviderClient({});
  return inviteTalent({ store: foundingStore(documentClient(), config.APPLICATIONS_TABLE), cognito, userPoolId: config.USER_POOL_ID }, applicationId, talentId);
}
