import {
  AdminAddUserToGroupCommand,
  AdminCreateUserCommand,
  AdminDeleteUserCommand,
  AdminGetUserCommand,
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
 * has an account (a client, say) keeps it and is added to the group. An unconfirmed sign-up
 * under the address is not an account: nobody proved they own the address (a stranger may have
 * signed up with it to hold it, decision 040), so it is removed and the invitation is created
 * and sent in its place. Every call is safe to repeat.
 */
export async function inviteTalent(deps: InviteTalentDeps, applicationId: string, talentId: string): Promise<{ invited: true; existingUser: boolean }> {
  const app = await deps.store.getApplication(applicationId);
  let existingUser = false;
  let replacedUnconfirmed = false;
  try {
    await createInvitedUser(deps, app.email);
  } catch (err) {
    if ((err as Error).name !== 'UsernameExistsException') throw err;
    const held = await deps.cognito.send(new AdminGetUserCommand({ UserPoolId: deps.userPoolId, Username: app.email }));
    if (held.UserStatus === 'UNCONFIRMED') {
      await deps.cognito.send(new AdminDeleteUserCommand({ UserPoolId: deps.userPoolId, Username: held.Username ?? app.email }));
      await createInvitedUser(deps, app.email);
      replacedUnconfirmed = true;
    } else {
      existingUser = true;
    }
  }
  await deps.cognito.send(new AdminAddUserToGroupCommand({ UserPoolId: deps.userPoolId, Username: app.email, GroupName: TALENT_GROUP }));
  if (!app.invitedAt) {
    await deps.store.recordInvited(applicationId);
    await deps.store.addHistory(applicationId, 'invited', { note: existingUser ? `${talentId}: existing account added to talent` : talentId });
  }
  log.info('talent invited', { applicationId, talentId, existingUser, replacedUnconfirmed });
  return { invited: true, existingUser };
}

/** The invited account: Cognito emails the temporary password. */
async function createInvitedUser(deps: InviteTalentDeps, email: string): Promise<void> {
  await deps.cognito.send(
    new AdminCreateUserCommand({
      UserPoolId: deps.userPoolId,
      Username: email,
      DesiredDeliveryMediums: ['EMAIL'],
      UserAttributes: [
        { Name: 'email', Value: email },
        { Name: 'email_verified', Value: 'true' },
        { Name: ROLE_ATTRIBUTE, Value: 'talent' },
      ],
    }),
  );
}
