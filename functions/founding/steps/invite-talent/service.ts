import {
  AdminAddUserToGroupCommand,
  AdminCreateUserCommand,
  type CognitoIdentityProviderClient,
} from '@aws-sdk/client-cognito-identity-provider';
import { ROLE_ATTRIBUTE } from '../../../../events/account-values';
import type { FoundingStore } from '../../store';
import { log } from '../../../shared/log';

const TALENT_GROUP = 'talent';

export interface InviteTalentDeps {
  store: FoundingStore;
  cognito: CognitoIdentityProviderClient;
  userPoolId: string;
}

/**
 * Workflow step InviteTalent: creates the accepted applicant's account (Cognito emails them a
 * temporary password), with role talent, and puts it in the talent group. Someone who already
 * has an account (a client, say) keeps it and is added to the group. Both calls are safe to
 * repeat.
 */
export async function inviteTalent(deps: InviteTalentDeps, applicationId: string, talentId: string): Promise<{ invited: true; existingUser: boolean }> {
  const app = await deps.store.getApplication(applicationId);
  let existingUser = false;
  try {
    await deps.cognito.send(
      new AdminCreateUserCommand({
        UserPoolId: deps.userPoolId,
        Username: app.email,
        DesiredDeliveryMediums: ['EMAIL'],
        UserAttributes: [
          { Name: 'email', Value: app.email },
          { Name: 'email_verified', Value: 'true' },
          { Name: ROLE_ATTRIBUTE, Value: 'talent' },
        ],
      }),
    );
  } catch (err) {
    if ((err as Error).name !== 'UsernameExistsException') throw err;
    existingUser = true;
  }
  await deps.cognito.send(new AdminAddUserToGroupCommand({ UserPoolId: deps.userPoolId, Username: app.email, GroupName: TALENT_GROUP }));
  if (!app.invitedAt) {
    await deps.store.updateApplication(applicationId, { invitedAt: deps.store.now().toISOString() });
    await deps.store.addHistory(applicationId, 'invited', { note: existingUser ? `${talentId}: existing account added to talent` : talentId });
  }
  log.info('talent invited', { applicationId, talentId, existingUser });
  return { invited: true, existingUser };
}
