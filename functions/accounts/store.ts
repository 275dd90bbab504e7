// The one data access of accounts: every read and write of the Accounts table's profiles, roles,
// plan requests and admin audit goes through here (layout in accounts-keys.ts, decision 021);
// credits go through the ledger (credits.ts).
import { randomUUID } from 'node:crypto';
import {
  BatchGetCommand,
  type BatchGetCommandOutput,
  DeleteCommand,
  GetCommand,
  QueryCommand,
  TransactWriteCommand,
  UpdateCommand,
  type DynamoDBDocumentClient,
  type QueryCommandInput,
} from '@aws-sdk/lib-dynamodb';
import type * as z from 'zod';
import { FULL_NAME_MAX_LENGTH, type AccountRole } from '../../events/account-values';
import type { AdminUserDetail, AdminUserQuery, AdminUserSummary, AuditEntry, PlanRequest } from '../../events/accounts';
import { STARTING_PLAN, planById, planCreditsExpireAt, planLot, type PlanId } from '../../events/plans';
import { matchesQuery, sortAndPage } from '../shared/admin-list';
import { ConflictError, NotFoundError, isConditionFailure } from '../shared/errors';
import { queryAll as queryAllItems } from '../shared/query-all';
import { EMAIL_INDEX, LIST_INDEX, LIST_PARTITION, accountKeys, emailKeyOf } from './keys';
import { ledgerWrite, spendableCredits, toEntry, type Actor } from './credits';

export type { Actor } from './credits';

export interface Account {
  id: string;
  email: string;
  full_name: string;
  role: AccountRole;
  /** Clients only. */
  plan?: PlanId;
  disabled: boolean;
  createdAt: string;
  updatedAt: string;
  /** Clients only: `stripe` while a Stripe subscription sets the plan (the monthly cron leaves it alone). */
  billing?: 'stripe';
  /** The Stripe subscription that sets the plan, while `billing` is `stripe`. */
  subscriptionId?: string;
  /** The latest sign-in (the Free plan's monthly credits go to accounts that signed in). */
  lastSignInAt?: string;
}

/** Who changes a plan when Stripe does, in the audit. */
const STRIPE_ACTOR: Actor = { sub: 'stripe', email: 'Stripe' };

/** The idempotency key of a new client's starting credits: granted once, however often sign-up is confirmed. */
export const SIGNUP_GRANT_KEY = 'signup-grant';
export const ACCOUNT_NOT_FOUND_MESSAGE = 'There is no account with this id.';
const NOT_A_CLIENT_MESSAGE = 'Only client accounts have a plan.';
const NO_PENDING_REQUEST_MESSAGE = 'This account has no pending plan request.';

/** Latest ledger entries the console's detail shows. */
const DETAIL_LEDGER_ENTRIES = 50;

function toAccount(item: Record<string, unknown>): Account {
  return {
    id: String(item.id),
    email: String(item.email),
    full_name: String(item.full_name ?? ''),
    role: item.role as AccountRole,
    ...(typeof item.plan === 'string' ? { plan: item.plan as PlanId } : {}),
    disabled: item.disabled === true,
    createdAt: String(item.createdAt),
    updatedAt: String(item.updatedAt),
    ...(item.billing === 'stripe' ? { billing: 'stripe' as const } : {}),
    ...(typeof item.subscriptionId === 'string' ? { subscriptionId: item.subscriptionId } : {}),
    ...(typeof item.lastSignInAt === 'string' ? { lastSignInAt: item.lastSignInAt } : {}),
  };
}

const pendingOf = (item: Record<string, unknown> | undefined): PlanRequest | undefined => {
  const request = item?.planRequest as PlanRequest | undefined;
  return request?.status === 'pending' ? request : undefined;
};

export type AccountStore = ReturnType<typeof accountStore>;

export function accountStore(doc: DynamoDBDocumentClient, tableName: string, now: () => Date = () => new Date()) {
  const queryAll = (input: Omit<QueryCommandInput, 'TableName' | 'ExclusiveStartKey'>) => queryAllItems(doc, tableName, input);

  const profileItem = async (id: string): Promise<Record<string, unknown> | undefined> => {
    const out = await doc.send(new GetCommand({ TableName: tableName, Key: accountKeys.profile(id), ConsistentRead: true }));
    return out.Item;
  };

  const requireProfile = async (id: string): Promise<Record<string, unknown>> => {
    const item = await profileItem(id);
    if (!item) throw new NotFoundError(ACCOUNT_NOT_FOUND_MESSAGE);
    return item;
  };

  /** Balances of many accounts (clients only have one), by account id. */
  const balancesOf = async (ids: string[]): Promise<Map<string, number>> => {
    const balances = new Map<string, number>();
    for (let i = 0; i < ids.length; i += 100) {
      let keys: Record<string, unknown>[] | undefined = ids.slice(i, i + 100).map((id) => accountKeys.balance(id));
      for (let round = 0; keys?.length && round < 8; round++) {
        const out: BatchGetCommandOutput = await doc.send(new BatchGetCommand({ RequestItems: { [tableName]: { Keys: keys, ConsistentRead: true } } }));
        // What is spendable now: lots whose time ran out are not counted (decision 043).
        for (const item of out.Responses?.[tableName] ?? []) balances.set(String(item.pk).slice('ACCOUNT#'.length), spendableCredits(item, now().getTime()));
        keys = out.UnprocessedKeys?.[tableName]?.Keys;
      }
    }
    return balances;
  };

  const summaryOf = (item: Record<string, unknown>, balance: number | undefined): AdminUserSummary => {
    const account = toAccount(item);
    const planRequest = pendingOf(item);
    return {
      id: account.id,
      email: account.email,
      full_name: account.full_name,
      role: account.role,
      ...(account.plan ? { plan: account.plan } : {}),
      ...(account.role === 'client' && balance !== undefined ? { balance } : {}),
      disabled: account.disabled,
      createdAt: account.createdAt,
      ...(planRequest ? { planRequest } : {}),
      ...(account.billing ? { billing: account.billing } : {}),
      ...(account.lastSignInAt ? { lastSignInAt: account.lastSignInAt } : {}),
    };
  };

  /** Updates profile fields (and writes an audit entry) in one transaction; the account must exist. */
  const changeProfile = async (
    id: string,
    set: Record<string, unknown>,
    audit?: { by: Actor; action: AuditEntry['action']; detail: string },
  ): Promise<void> => {
    const at = now().toISOString();
    const fields = { ...set, updatedAt: at };
    const entries = Object.entries(fields);
    const update = {
      TableName: tableName,
      Key: accountKeys.profile(id),
      UpdateExpression: `SET ${entries.map((_, i) => `#f${i} = :v${i}`).join(', ')}`,
      ConditionExpression: 'attribute_exists(pk)',
      ExpressionAttributeNames: Object.fromEntries(entries.map(([k], i) => [`#f${i}`, k])),
      ExpressionAttributeValues: Object.fromEntries(entries.map(([, v], i) => [`:v${i}`, v])),
    };
    try {
      if (!audit) {
        await doc.send(new UpdateCommand(update));
        return;
      }
      const entry: AuditEntry = { at, by: audit.by.email, action: audit.action, detail: audit.detail };
      await doc.send(
        new TransactWriteCommand({
          TransactItems: [
            { Update: update },
            { Put: { TableName: tableName, Item: { ...accountKeys.audit(id, at, randomUUID()), ...entry, bySub: audit.by.sub } } },
          ],
        }),
      );
    } catch (err) {
      if (isConditionFailure(err)) {
        if (!(await profileItem(id))) throw new NotFoundError(ACCOUNT_NOT_FOUND_MESSAGE);
      }
      throw err;
    }
  };

  const store = {
    async get(id: string): Promise<Account | undefined> {
      const item = await profileItem(id);
      return item ? toAccount(item) : undefined;
    },

    /**
     * Creates an account once (Cognito retries triggers, and `GET /me` creates invited people's
     * accounts): profile and role, and for a client the balance with the starting plan's credits
     * as the first ledger entry, in one transaction under attribute_not_exists. A repeat changes
     * nothing and answers the stored account with `created: false`.
     */
    async create(input: { id: string; email: string; full_name: string; role: AccountRole }): Promise<{ account: Account; created: boolean }> {
      const at = now().toISOString();
      const account: Account = {
        id: input.id,
        email: input.email,
        full_name: input.full_name.trim().slice(0, FULL_NAME_MAX_LENGTH),
        role: input.role,
        ...(input.role === 'client' ? { plan: STARTING_PLAN } : {}),
        disabled: false,
        createdAt: at,
        updatedAt: at,
      };
      const put = (Item: Record<string, unknown>) => ({ Put: { TableName: tableName, Item, ConditionExpression: 'attribute_not_exists(pk)' } });
      const items = [
        put({ ...accountKeys.profile(input.id), ...account, emailKey: emailKeyOf(input.email), listKey: LIST_PARTITION }),
        put({ ...accountKeys.role(input.id), user_id: input.id, role: input.role, createdAt: at }),
      ];
      if (input.role === 'client') {
        const plan = planById(STARTING_PLAN);
        const credits = plan.monthlyCredits;
        // The Free plan's credits are one promotional lot (decision 036), which expires at the end
        // of the following month like every Free grant (decision 043).
        const lot = { ...planLot(STARTING_PLAN), expiresAt: planCreditsExpireAt(new Date(at)) };
        const lots = [{ credits, ...lot }];
        const { entryItem, guardItem } = ledgerWrite(input.id, 'grant', { credits, key: SIGNUP_GRANT_KEY, reason: `${plan.name} plan credits`, lot }, credits, 1, at, lots);
        items.push(put({ ...accountKeys.balance(input.id), credits, seq: 1, lots, updatedAt: at }), put(entryItem), put(guardItem));
      }
      try {
        await doc.send(new TransactWriteCommand({ TransactItems: items }));
        return { account, created: true };
      } catch (err) {
        if ((err as Error)?.name !== 'TransactionCanceledException') throw err;
        const existing = await profileItem(input.id);
        if (!existing) throw err;
        return { account: toAccount(existing), created: false };
      }
    },

    async updateProfile(id: string, changes: { full_name: string }): Promise<Account> {
      await changeProfile(id, { full_name: changes.full_name });
      return toAccount(await requireProfile(id));
    },

    async findByEmail(email: string): Promise<Account | undefined> {
      const out = await doc.send(
        new QueryCommand({
          TableName: tableName,
          IndexName: EMAIL_INDEX,
          KeyConditionExpression: 'emailKey = :e',
          ExpressionAttributeValues: { ':e': emailKeyOf(email) },
          Limit: 1,
        }),
      );
      const item = out.Items?.[0];
      return item ? toAccount(item) : undefined;
    },

    /** The console's list: `q` a case-insensitive part of the email; filters, then a page. */
    async list(query: z.output<typeof AdminUserQuery>): Promise<{ items: AdminUserSummary[]; total: number }> {
      const profiles = await queryAll({
        IndexName: LIST_INDEX,
        KeyConditionExpression: 'listKey = :l',
        ExpressionAttributeValues: { ':l': LIST_PARTITION },
      });
      const matching = profiles.filter(
        (p) =>
          matchesQuery(query.q, String(p.email)) &&
          (!query.role || p.role === query.role) &&
          (!query.plan || p.plan === query.plan) &&
          (!query.planRequest || pendingOf(p) !== undefined),
      );
      const page = sortAndPage(matching, { sort: 'createdAt', order: query.order, offset: query.offset, limit: query.limit }, (p) => String(p.createdAt));
      const balances = await balancesOf(page.items.filter((p) => p.role === 'client').map((p) => String(p.id)));
      return { items: page.items.map((p) => summaryOf(p, balances.get(String(p.id)))), total: page.total };
    },

    /** The summary, the latest ledger entries and every admin change, newest first. */
    async detail(id: string): Promise<AdminUserDetail | undefined> {
      const item = await profileItem(id);
      if (!item) return undefined;
      const [balances, ledger, audit] = await Promise.all([
        balancesOf([id]),
        doc.send(
          new QueryCommand({
            TableName: tableName,
            KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
            ExpressionAttributeValues: { ':pk': accountKeys.pk(id), ':prefix': accountKeys.ledgerPrefix },
            ScanIndexForward: false,
            Limit: DETAIL_LEDGER_ENTRIES,
            ConsistentRead: true,
          }),
        ),
        queryAll({
          KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
          ExpressionAttributeValues: { ':pk': accountKeys.pk(id), ':prefix': accountKeys.auditPrefix },
          ScanIndexForward: false,
          ConsistentRead: true,
        }),
      ]);
      return {
        ...summaryOf(item, balances.get(id)),
        // The console's view of an admin's grant also names the admin's sub (the client's ledger does not).
        ledger: (ledger.Items ?? []).map((i) => ({ ...toEntry(i), ...(typeof i.bySub === 'string' ? { bySub: i.bySub } : {}) })),
        audit: audit.map((a) => ({ at: String(a.at), by: String(a.by), action: a.action as AuditEntry['action'], detail: String(a.detail) })),
      };
    },

    /** Sets a client's plan with its audit entry; a pending plan request is marked done. */
    async setPlan(id: string, plan: PlanId, by: Actor): Promise<Account> {
      const item = await requireProfile(id);
      if (item.role !== 'client') throw new ConflictError(NOT_A_CLIENT_MESSAGE);
      const pending = pendingOf(item);
      const from = typeof item.plan === 'string' ? planById(item.plan as PlanId).name : 'no';
      await changeProfile(
        id,
        { plan, ...(pending ? { planRequest: { ...pending, status: 'done', decidedAt: now().toISOString() } } : {}) },
        { by, action: 'plan-changed', detail: `${from} -> ${planById(plan).name}` },
      );
      return toAccount(await requireProfile(id));
    },

    /**
     * Sets a client's plan as Stripe says (the payments wing, on a verified event), with an audit
     * entry by Stripe. With `subscriptionId` the plan is billed by Stripe (`billing: 'stripe'`:
     * the monthly cron grants it nothing, paid invoices do); back on the Free plan without a
     * subscription, it is not any more. Setting what is already set writes nothing.
     */
    async setBillingPlan(id: string, plan: PlanId, change: { subscriptionId?: string; reason: string }): Promise<Account> {
      const item = await requireProfile(id);
      if (item.role !== 'client') throw new ConflictError(NOT_A_CLIENT_MESSAGE);
      const current = toAccount(item);
      const endsBilling = plan === STARTING_PLAN && !change.subscriptionId;
      const billing = change.subscriptionId ? 'stripe' : endsBilling ? undefined : current.billing;
      const subscriptionId = change.subscriptionId ?? (endsBilling ? undefined : current.subscriptionId);
      if (current.plan === plan && current.billing === billing && current.subscriptionId === subscriptionId) return current;

      const at = now().toISOString();
      const pending = pendingOf(item);
      const set: Record<string, unknown> = {
        plan,
        updatedAt: at,
        ...(billing ? { billing } : {}),
        ...(subscriptionId ? { subscriptionId } : {}),
        // A pending request for this plan is done: the client got it by paying.
        ...(pending?.plan === plan ? { planRequest: { ...pending, status: 'done', decidedAt: at } } : {}),
      };
      const remove = [...(billing ? [] : ['billing']), ...(subscriptionId ? [] : ['subscriptionId'])];
      const names = Object.keys(set);
      const from = current.plan ? planById(current.plan).name : 'no';
      const audit: AuditEntry = { at, by: STRIPE_ACTOR.email, action: 'plan-changed', detail: `${from} -> ${planById(plan).name}: ${change.reason}`.slice(0, 500) };
      await doc.send(
        new TransactWriteCommand({
          TransactItems: [
            {
              Update: {
                TableName: tableName,
                Key: accountKeys.profile(id),
                UpdateExpression: `SET ${names.map((_, i) => `#f${i} = :v${i}`).join(', ')}${remove.length ? ` REMOVE ${remove.map((_, i) => `#r${i}`).join(', ')}` : ''}`,
                ConditionExpression: 'attribute_exists(pk)',
                ExpressionAttributeNames: {
                  ...Object.fromEntries(names.map((k, i) => [`#f${i}`, k])),
                  ...Object.fromEntries(remove.map((k, i) => [`#r${i}`, k])),
                },
                ExpressionAttributeValues: Object.fromEntries(names.map((k, i) => [`:v${i}`, set[k]])),
              },
            },
            { Put: { TableName: tableName, Item: { ...accountKeys.audit(id, at, randomUUID()), ...audit, bySub: STRIPE_ACTOR.sub } } },
          ],
        }),
      );
      return toAccount(await requireProfile(id));
    },

    /**
     * Records a sign-in on the profile (the user pool's post-authentication trigger). An account
     * not stored yet (an invited person before their first `GET /me`) is left alone: false.
     */
    async recordSignIn(id: string, at: Date = now()): Promise<boolean> {
      try {
        await doc.send(
          new UpdateCommand({
            TableName: tableName,
            Key: accountKeys.profile(id),
            UpdateExpression: 'SET lastSignInAt = :at',
            ConditionExpression: 'attribute_exists(pk)',
            ExpressionAttributeValues: { ':at': at.toISOString() },
          }),
        );
        return true;
      } catch (err) {
        if (isConditionFailure(err)) return false;
        throw err;
      }
    },

    async setDisabled(id: string, disabled: boolean, by: Actor, reason?: string): Promise<Account> {
      await changeProfile(id, { disabled }, { by, action: disabled ? 'disabled' : 'enabled', detail: reason?.trim() || (disabled ? 'Disabled' : 'Enabled') });
      return toAccount(await requireProfile(id));
    },

    async declinePlanRequest(id: string, by: Actor): Promise<void> {
      const item = await requireProfile(id);
      const pending = pendingOf(item);
      if (!pending) throw new ConflictError(NO_PENDING_REQUEST_MESSAGE);
      await changeProfile(
        id,
        { planRequest: { ...pending, status: 'declined', decidedAt: now().toISOString() } },
        { by, action: 'plan-request-declined', detail: `Request for the ${planById(pending.plan).name} plan declined` },
      );
    },

    /** A client's request for another plan; a new request replaces a pending one. */
    async requestPlan(id: string, plan: PlanId): Promise<PlanRequest> {
      const request: PlanRequest = { id: randomUUID(), plan, status: 'pending', requestedAt: now().toISOString() };
      await changeProfile(id, { planRequest: request });
      return request;
    },

    async pendingPlanRequest(id: string): Promise<PlanRequest | undefined> {
      return pendingOf(await profileItem(id));
    },
  };
  return store;
}

/**
 * Erasure (decision 019): deletes every item of each account registered under `email` (profile,
 * role, balance, ledger, guards, reservations, audit); returns how many items were deleted.
 * Idempotent: a second run finds nothing.
 */
export async function eraseAccountsByEmail(doc: DynamoDBDocumentClient, tableName: string, email: string): Promise<number> {
  const found = await doc.send(
    new QueryCommand({ TableName: tableName, IndexName: EMAIL_INDEX, KeyConditionExpression: 'emailKey = :e', ExpressionAttributeValues: { ':e': emailKeyOf(email) } }),
  );
  let deleted = 0;
  for (const profile of found.Items ?? []) {
    const keys = await queryAllItems(doc, tableName, { KeyConditionExpression: 'pk = :pk', ExpressionAttributeValues: { ':pk': profile.pk }, ProjectionExpression: 'pk, sk' });
    for (const key of keys) {
      await doc.send(new DeleteCommand({ TableName: tableName, Key: { pk: key.pk, sk: key.sk } }));
      deleted += 1;
    }
  }
  return deleted;
}
