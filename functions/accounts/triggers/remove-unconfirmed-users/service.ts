import { UNCONFIRMED_USER_MAX_AGE_HOURS } from '../../../../events/sign-up';
import { log } from '../../../shared/log';
import type { PoolUsers } from '../../pool-users';

export interface RemoveUnconfirmedDeps {
  users: Pick<PoolUsers, 'unconfirmed' | 'remove'>;
  now: () => Date;
}

/**
 * The hourly schedule's target (decision 040): removes every sign-up left unconfirmed for more
 * than a day, so an address nobody proved they own is free again (for its real owner's sign-up,
 * or for the invitation of an accepted applicant). Nothing else is stored for an unconfirmed
 * sign-up: the account is created only on confirmation. "Now" is the event's time, as the
 * schedule fired it (a late delivery removes what was due then). Removing a user already gone
 * is not an error, so a repeated delivery changes nothing.
 */
export async function removeUnconfirmedUsers(deps: RemoveUnconfirmedDeps, event: { time?: string } = {}): Promise<{ removed: number; kept: number }> {
  const now = event.time && !Number.isNaN(Date.parse(event.time)) ? new Date(event.time) : deps.now();
  const cutoff = now.getTime() - UNCONFIRMED_USER_MAX_AGE_HOURS * 3600 * 1000;
  // Collected first: removing while paging could make Cognito skip users.
  const due: string[] = [];
  let kept = 0;
  for await (const user of deps.users.unconfirmed()) {
    if (user.createdAt && user.createdAt.getTime() <= cutoff) due.push(user.username);
    else kept += 1;
  }
  for (const username of due) await deps.users.remove(username);
  log.info('unconfirmed sign-ups removed', { removed: due.length, kept });
  return { removed: due.length, kept };
}
