// The user pool's people as the accounts wing reads and removes them (decision 040): an address's
// sign-up state, and the unconfirmed sign-ups that hold an address nobody proved they own.
import {
  AdminDeleteUserCommand,
  AdminGetUserCommand,
  ListUsersCommand,
  type CognitoIdentityProviderClient,
} from '@aws-sdk/client-cognito-identity-provider';

/** A user of the pool: Cognito's status (`UNCONFIRMED`, `CONFIRMED`, `FORCE_CHANGE_PASSWORD`, ...). */
export interface PoolUser {
  username: string;
  status: string;
  enabled: boolean;
  createdAt?: Date;
}

export interface PoolUsers {
  /** The user signed up (or invited) under this address, if any. */
  get(email: string): Promise<PoolUser | undefined>;
  /** Removes a user; one already gone is not an error. */
  remove(username: string): Promise<void>;
  /** Every unconfirmed user, page by page. */
  unconfirmed(): AsyncIterable<PoolUser>;
}

const isNotFound = (err: unknown) => (err as Error)?.name === 'UserNotFoundException';

export function poolUsers(cognito: CognitoIdentityProviderClient, userPoolId: string): PoolUsers {
  return {
    async get(email) {
      try {
        const user = await cognito.send(new AdminGetUserCommand({ UserPoolId: userPoolId, Username: email }));
        return { username: user.Username ?? email, status: user.UserStatus ?? 'UNKNOWN', enabled: user.Enabled !== false, createdAt: user.UserCreateDate };
      } catch (err) {
        if (isNotFound(err)) return undefined;
        throw err;
      }
    },
    async remove(username) {
      try {
        await cognito.send(new AdminDeleteUserCommand({ UserPoolId: userPoolId, Username: username }));
      } catch (err) {
        if (!isNotFound(err)) throw err;
      }
    },
    async *unconfirmed() {
      let token: string | undefined;
      do {
        // Cognito pages ListUsers by 60 at most.
        const page = await cognito.send(new ListUsersCommand({ UserPoolId: userPoolId, Filter: 'cognito:user_status = "UNCONFIRMED"', Limit: 60, PaginationToken: token }));
        for (const user of page.Users ?? []) {
          if (user.Username && user.UserStatus === 'UNCONFIRMED') {
            yield { username: user.Username, status: user.UserStatus, enabled: user.Enabled !== false, createdAt: user.UserCreateDate };
          }
        }
        token = page.PaginationToken;
      } while (token);
    },
  };
}
