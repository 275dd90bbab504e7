// Disabling and enabling an account, shared by the console's disable and enable routes.
import type * as z from 'zod';
import { AdminAccountStateRequest, type AdminUserDetail } from '../../events/accounts';
import { NotFoundError } from '../shared/errors';
import { parseJsonBody, type HttpEvent } from '../shared/http';
import { ACCOUNT_NOT_FOUND_MESSAGE, type AccountStore, type Actor } from './store';
import { userDetail } from './users';

/** What the console changes in the user pool: sign-in on or off, and every session ended. */
export interface SignInSwitch {
  disable(accountId: string): Promise<void>;
  enable(accountId: string): Promise<void>;
  /** Revokes the person's refresh tokens: every device must sign in again. */
  signOutEverywhere(accountId: string): Promise<void>;
}

/**
 * Disables or enables an account: first in the user pool (disabling also signs the person out
 * everywhere), then the account's flag with its audit entry (who, when, the reason). Asking for
 * the state the account is already in changes the pool again (harmless) but records nothing new,
 * so a repeated click is one change.
 */
export async function setAccountState(
  deps: { accounts: Pick<AccountStore, 'get' | 'setDisabled' | 'detail'>; signIn: SignInSwitch },
  id: string,
  disabled: boolean,
  reason: string | undefined,
  by: Actor,
): Promise<AdminUserDetail> {
  const account = await deps.accounts.get(id);
  if (!account) throw new NotFoundError(ACCOUNT_NOT_FOUND_MESSAGE);
  if (disabled) {
    await deps.signIn.disable(id);
    await deps.signIn.signOutEverywhere(id);
  } else {
    await deps.signIn.enable(id);
  }
  if (account.disabled !== disabled) await deps.accounts.setDisabled(id, disabled, by, reason?.trim() || undefined);
  return userDetail(deps.accounts, id);
}

/** The optional `{reason}` of a disable or enable; no body at all is no reason. */
export function stateRequestOf(event: HttpEvent): z.output<typeof AdminAccountStateRequest> {
  return event.body ? parseJsonBody(event, AdminAccountStateRequest) : {};
}
