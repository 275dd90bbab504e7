import { AdminAddUserToGroupCommand, CognitoIdentityProviderClient } from '@aws-sdk/client-cognito-identity-provider';
import type { PostConfirmationTriggerEvent } from 'aws-lambda';
import * as z from 'zod';
import { ROLE_ATTRIBUTE, SELF_SIGNUP_ROLES, type AccountRole } from '../../../../events/account-values';
import { documentClient } from '../../../shared/clients';
import { loadConfig } from '../../../shared/config';
import { log } from '../../../shared/log';
import { accountStore, type AccountStore } from '../../store';

const config = loadConfig(z.object({ ACCOUNTS_TABLE: z.string().min(1) }));

let cognito: CognitoIdentityProviderClient | undefined;

/**
 * The role of a confirmed person: the one chosen at sign-up, or `client` for a person whose first
 * sign-in came through an external provider (Google), who chose none. Undefined otherwise.
 */
export function roleOf(attributes: Record<string, string | undefined>): AccountRole | undefined {
  const chosen = attributes[ROLE_ATTRIBUTE];
  if (chosen && (SELF_SIGNUP_ROLES as readonly string[]).includes(chosen)) return chosen as AccountRole;
  if (!chosen && attributes.identities) return 'client';
  return undefined;
}

export interface ConfirmationDeps {
  accounts: Pick<AccountStore, 'create'>;
  addToGroup(role: AccountRole): Promise<void>;
}

/**
 * Creates the account (profile, role and, for a client, the starting plan's credits) and adds the
 * person to their role's group. Running it again changes nothing (Cognito retries triggers).
 */
export async function confirmAccount(deps: ConfirmationDeps, event: PostConfirmationTriggerEvent): Promise<void> {
  if (event.triggerSource !== 'PostConfirmation_ConfirmSignUp') return;
  const attributes = event.request.userAttributes ?? {};
  const role = roleOf(attributes);
  if (!role || !attributes.sub || !attributes.email) {
    log.warn('confirmed user without a self sign-up role; no account created', { sub: attributes.sub });
    return;
  }
  await deps.accounts.create({ id: attributes.sub, email: attributes.email, full_name: (attributes.name ?? '').trim(), role });
  await deps.addToGroup(role);
}

/** Cognito post-confirmation: the new person's account and group. */
export async function handler(event: PostConfirmationTriggerEvent): Promise<PostConfirmationTriggerEvent> {
  await confirmAccount(
    {
      accounts: accountStore(documentClient(), config.ACCOUNTS_TABLE),
      addToGroup: async (role) => {
        cognito ??= new CognitoIdentityProviderClient({});
        await cognito.send(new AdminAddUserToGroupCommand({ UserPoolId: event.userPoolId, Username: event.userName, GroupName: role }));
      },
    },
    event,
  );
  return event;
}
