// What every `/me` route does first: the caller's account (created from the verified claims the
// first time, for people who never confirmed a self sign-up, such as invited talent), refused
// when disabled; and, for talent, where they stand (docs/product.md#accounts).
import type { Likeness, TalentStanding } from '../../events/accounts';
import type { ExcludableIndustry } from '../../events/founding-values';
import type { Talent } from '../../events/talent';
import type { Account, AccountStore } from './store';
import type { EmailLock, StoredApplication } from '../founding';
import type { AccountCaller } from '../shared/auth';
import { ConflictError, ForbiddenError } from '../shared/errors';
import type { RateRule } from '../shared/rate-limit';

export const ACCOUNT_DISABLED_MESSAGE = 'This account is disabled. Contact support.';
const NOT_ACCEPTED_MESSAGE = 'Your likeness settings open once your talent application is accepted.';
export const NO_LIKENESS_MESSAGE = 'Your likeness is not in the catalog yet. Try again later or contact support.';

/** How often a person may change their own profile or likeness settings. */
const ACCOUNT_CHANGES_PER_HOUR = 30;

/**
 * The per-account limit on a change a person makes to their own account (`what`, e.g.
 * `profile`): each change is a write, so a script repeating it is refused with 429.
 */
export function ownChangeRule(what: string, accountId: string): RateRule {
  return {
    name: `${what}-change.account`,
    subject: accountId,
    limit: ACCOUNT_CHANGES_PER_HOUR,
    windowSeconds: 60 * 60,
    message: `You have made ${ACCOUNT_CHANGES_PER_HOUR} changes in the last hour. Please wait a while and try again.`,
  };
}

/** The caller's account; created from the claims when there is none yet; 403 when disabled. */
export async function currentAccount(store: Pick<AccountStore, 'get' | 'create'>, caller: AccountCaller): Promise<Account> {
  const account =
    (await store.get(caller.sub)) ??
    (await store.create({ id: caller.sub, email: caller.email, full_name: caller.name ?? '', role: caller.role })).account;
  if (account.disabled) throw new ForbiddenError(ACCOUNT_DISABLED_MESSAGE);
  return account;
}

export interface StandingDeps {
  founding: { getEmailLock(email: string): Promise<EmailLock | undefined>; getApplication(id: string): Promise<StoredApplication> };
  talent: { get(id: string): Promise<Talent | undefined>; getExcludedIndustries(id: string): Promise<ExcludableIndustry[] | undefined> };
}

/**
 * Where a talent stands: the application under the account's confirmed email decides
 * (`accepted` opens the talent features, with the likeness from the catalog item the
 * application names; `applied` otherwise; `none` without an application or a confirmed email).
 */
export async function talentStanding(deps: StandingDeps, caller: Pick<AccountCaller, 'email' | 'emailVerified'>): Promise<TalentStanding> {
  return (await standingAndTalent(deps, caller)).standing;
}

/** The standing, with the catalog talent its likeness was read from (read once). */
async function standingAndTalent(deps: StandingDeps, caller: Pick<AccountCaller, 'email' | 'emailVerified'>): Promise<{ standing: TalentStanding; talent?: Talent }> {
  if (!caller.emailVerified) return { standing: { access: 'none' } };
  const lock = await deps.founding.getEmailLock(caller.email.trim().toLowerCase());
  if (!lock) return { standing: { access: 'none' } };
  let app: StoredApplication;
  try {
    app = await deps.founding.getApplication(lock.applicationId);
  } catch (err) {
    if ((err as Error)?.name === 'ApplicationNotFound') return { standing: { access: 'none' } };
    throw err;
  }
  if (app.status === 'awaiting_confirmation') return { standing: { access: 'none' } };
  const application = { id: app.id, status: app.status, submittedAt: app.submittedAt };
  if (app.status !== 'accepted') return { standing: { access: 'applied', application } };
  // Until the talent saves their own, the exclusions chosen on the application stand.
  const found = app.talentId ? await likenessOf(deps, app.talentId, app.excludedIndustries ?? []) : undefined;
  return { standing: { access: 'accepted', application, ...(found ? { likeness: found.likeness } : {}) }, talent: found?.talent };
}

async function likenessOf(deps: StandingDeps, talentId: string, chosenOnApplication: ExcludableIndustry[]): Promise<{ likeness: Likeness; talent: Talent } | undefined> {
  const [talent, excluded] = await Promise.all([deps.talent.get(talentId), deps.talent.getExcludedIndustries(talentId)]);
  if (!talent) return undefined;
  return { likeness: { talentId, name: talent.name, status: talent.status, founding: talent.founding, excludedIndustries: excluded ?? chosenOnApplication }, talent };
}

/** An accepted talent's standing with its likeness; 403 for anyone else (the route's access class). */
export async function requireAcceptedTalent(deps: StandingDeps, caller: AccountCaller): Promise<TalentStanding & { likeness?: Likeness }> {
  const standing = await talentStanding(deps, caller);
  if (standing.access !== 'accepted') throw new ForbiddenError(NOT_ACCEPTED_MESSAGE);
  return standing;
}

/** What `callerTalent` reads: the caller's account and their standing as talent. */
export interface CallerTalentDeps {
  accounts: Pick<AccountStore, 'get' | 'create'>;
  standing: StandingDeps;
}

/** The signed-in talent behind a `/me` route: their account, their likeness and its catalog talent. */
export interface CallerTalent {
  account: Account;
  likeness: Likeness;
  talent: Talent;
}

/**
 * The one way a `/me` route finds the caller's own talent (the request never names one): the
 * caller's account (created the first time; 403 when disabled), their accepted standing (403
 * otherwise) and the catalog talent their application became (409 while it is not in the
 * catalog). The talent id comes from the caller's accepted application, never from the request.
 */
export async function callerTalent(deps: CallerTalentDeps, caller: AccountCaller): Promise<CallerTalent> {
  const account = await currentAccount(deps.accounts, caller);
  const { standing, talent } = await standingAndTalent(deps.standing, caller);
  if (standing.access !== 'accepted') throw new ForbiddenError(NOT_ACCEPTED_MESSAGE);
  if (!standing.likeness || !talent) throw new ConflictError(NO_LIKENESS_MESSAGE);
  return { account, likeness: standing.likeness, talent };
}
