import { DeleteCommand, GetCommand, PutCommand, QueryCommand, UpdateCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { WaitlistEntry } from '../../events/admin';
import { isConditionFailure } from '../shared/errors';
import { deleteItems, scanItems } from '../shared/erasure';

/*
 * The waitlist table: one item per signup (`SIGNUP#<email>`), listed in waitlist order through
 * the `byPosition` index, and one counter whose conditional increment enforces the capacity.
 * A signup is `pending` (no place, expires by TTL) until its address is confirmed, then
 * `active` with its place. Confirmation links are `CONFIRM#<sha-256 of the token>` (the token
 * itself is never stored), and `PLACE#<position>` leads from a place to its signup, so events
 * can carry the place alone.
 */
const COUNTER_KEY = 'COUNTER#waitlist';
const LIST_PARTITION = 'WAITLIST';
const signupKey = (email: string) => `SIGNUP#${email}`;
const tokenKey = (tokenHash: string) => `CONFIRM#${tokenHash}`;
const placeKey = (position: number) => `PLACE#${position}`;

/** A signup waiting for its address to be confirmed; it holds no place. */
export interface PendingSignup {
  email: string;
  firstName?: string;
  signupType?: string;
  newsletter: boolean;
  requestedAt: string;
  /** When the item expires (epoch seconds, the table's TTL attribute). */
  expiresAt: number;
}

/** Where the welcome email of a signup stands, as the console shows it. */
export type WelcomeState = 'queued' | 'event-failed' | 'sending' | 'sent' | 'failed';

export interface Signup {
  email: string;
  position: number;
  signedUpAt: string;
  firstName?: string;
  signupType?: string;
  newsletter: boolean;
  welcome?: WelcomeState;
}

export type WaitlistStore = ReturnType<typeof waitlistStore>;

export function waitlistStore(doc: DynamoDBDocumentClient, tableName: string) {
  const pages = async function* (query: Omit<ConstructorParameters<typeof QueryCommand>[0], 'TableName' | 'ExclusiveStartKey'>) {
    let start: Record<string, unknown> | undefined;
    do {
      const page = await doc.send(new QueryCommand({ ...query, TableName: tableName, ExclusiveStartKey: start }));
      yield page;
      start = page.LastEvaluatedKey;
    } while (start);
  };

  return {
    async getSignup(email: string): Promise<Signup | undefined> {
      const out = await doc.send(new GetCommand({ TableName: tableName, Key: { pk: signupKey(email) }, ConsistentRead: true }));
      const item = out.Item;
      // An item without a position is a claim left by an earlier version of the signup.
      return item && item.status === 'active' && item.position ? signupOf(item) : undefined;
    },

    /** The signup at a place, through its `PLACE#` item. */
    async getSignupAt(position: number): Promise<Signup | undefined> {
      const place = await doc.send(new GetCommand({ TableName: tableName, Key: { pk: placeKey(position) }, ConsistentRead: true }));
      const email = place.Item?.email;
      if (typeof email !== 'string') return undefined;
      const signup = await this.getSignup(email);
      return signup?.position === position ? signup : undefined;
    },

    /** A signup still waiting for confirmation (and not yet expired), if any. */
    async getPending(email: string, now: Date): Promise<PendingSignup | undefined> {
      const out = await doc.send(new GetCommand({ TableName: tableName, Key: { pk: signupKey(email) }, ConsistentRead: true }));
      const item = out.Item;
      if (!item || item.status !== 'pending' || Number(item.expiresAt) <= now.getTime() / 1000) return undefined;
      return {
        email: String(item.email),
        firstName: typeof item.firstName === 'string' ? item.firstName : undefined,
        signupType: typeof item.signupType === 'string' ? item.signupType : undefined,
        newsletter: item.newsletter !== false,
        requestedAt: String(item.requestedAt),
        expiresAt: Number(item.expiresAt),
      };
    },

    /**
     * Writes (or refreshes) a pending signup. Never over an active one: false when the address
     * is already on the list.
     */
    async putPending(pending: PendingSignup): Promise<boolean> {
      try {
        await doc.send(
          new PutCommand({
            TableName: tableName,
            Item: { pk: signupKey(pending.email), status: 'pending', ...pending },
            ConditionExpression: 'attribute_not_exists(pk) OR #status = :pending',
            ExpressionAttributeNames: { '#status': 'status' },
            ExpressionAttributeValues: { ':pending': 'pending' },
          }),
        );
        return true;
      } catch (err) {
        if (isConditionFailure(err)) return false;
        throw err;
      }
    },

    /** Records a confirmation link by its token's hash, until `expiresAt` (epoch seconds). */
    async putToken(tokenHash: string, email: string, expiresAt: number): Promise<void> {
      await doc.send(new PutCommand({ TableName: tableName, Item: { pk: tokenKey(tokenHash), email, expiresAt } }));
    },

    /** The address a confirmation link is for, unless it is unknown, used or expired. */
    async getToken(tokenHash: string, now: Date): Promise<string | undefined> {
      const out = await doc.send(new GetCommand({ TableName: tableName, Key: { pk: tokenKey(tokenHash) }, ConsistentRead: true }));
      const item = out.Item;
      if (!item || typeof item.email !== 'string' || Number(item.expiresAt) <= now.getTime() / 1000) return undefined;
      return item.email;
    },

    /** Uses up a confirmation link. */
    async deleteToken(tokenHash: string): Promise<void> {
      await doc.send(new DeleteCommand({ TableName: tableName, Key: { pk: tokenKey(tokenHash) } }));
    },

    /** Records which signup holds a place. */
    async putPlace(position: number, email: string): Promise<void> {
      await doc.send(new PutCommand({ TableName: tableName, Item: { pk: placeKey(position), email } }));
    },

    /** Takes the next place if one is left: one conditional write, never a count then an insert. */
    async takePlace(capacity: number): Promise<number | undefined> {
      try {
        const out = await doc.send(
          new UpdateCommand({
            TableName: tableName,
            Key: { pk: COUNTER_KEY },
            UpdateExpression: 'SET #count = if_not_exists(#count, :zero) + :one',
            ConditionExpression: 'attribute_not_exists(#count) OR #count < :capacity',
            ExpressionAttributeNames: { '#count': 'count' },
            ExpressionAttributeValues: { ':zero': 0, ':one': 1, ':capacity': capacity },
            ReturnValues: 'UPDATED_NEW',
          }),
        );
        return Number(out.Attributes?.count);
      } catch (err) {
        if (isConditionFailure(err)) return undefined;
        throw err;
      }
    },

    /** Writes a signup in its place, over its pending item (or a claim left by an earlier version). */
    async putSignup(signup: Signup): Promise<void> {
      await doc.send(
        new PutCommand({
          TableName: tableName,
          Item: { pk: signupKey(signup.email), status: 'active', gsi1pk: LIST_PARTITION, gsi1sk: signup.position, ...signup },
        }),
      );
    },

    /**
     * Records where the welcome email stands. `ifExists` refuses (false) when there is no
     * such signup, so an event about an unknown email sends nothing.
     */
    async markWelcome(email: string, state: WelcomeState, options: { error?: string; ifExists?: boolean } = {}): Promise<boolean> {
      const set = ['welcome = :state'];
      const values: Record<string, unknown> = { ':state': state };
      if (state === 'sent') {
        set.push('welcomeSentAt = :at');
        values[':at'] = new Date().toISOString();
      }
      if (options.error !== undefined) {
        set.push('welcomeError = :error');
        values[':error'] = options.error.slice(0, 500);
      }
      try {
        await doc.send(
          new UpdateCommand({
            TableName: tableName,
            Key: { pk: signupKey(email) },
            UpdateExpression: `SET ${set.join(', ')}${state === 'sent' ? ' REMOVE welcomeError' : ''}`,
            ConditionExpression: options.ifExists ? 'attribute_exists(pk)' : undefined,
            ExpressionAttributeValues: values,
          }),
        );
        return true;
      } catch (err) {
        if (options.ifExists && isConditionFailure(err)) return false;
        throw err;
      }
    },

    /** Every signup in waitlist order. */
    async readAll(): Promise<WaitlistEntry[]> {
      const entries: WaitlistEntry[] = [];
      for await (const page of pages({
        IndexName: 'byPosition',
        KeyConditionExpression: 'gsi1pk = :list',
        ExpressionAttributeValues: { ':list': LIST_PARTITION },
      })) {
        for (const item of page.Items ?? []) entries.push(entryOf(item));
      }
      return entries;
    },

    /** How many places are taken. */
    async count(): Promise<number> {
      const out = await doc.send(new GetCommand({ TableName: tableName, Key: { pk: COUNTER_KEY }, ConsistentRead: true }));
      return Number(out.Item?.count ?? 0);
    },

    /** How many welcome emails failed. */
    async countFailedWelcomes(): Promise<number> {
      let count = 0;
      for await (const page of pages({
        IndexName: 'byPosition',
        KeyConditionExpression: 'gsi1pk = :list',
        FilterExpression: 'welcome = :failed',
        ExpressionAttributeValues: { ':list': LIST_PARTITION, ':failed': 'failed' },
        Select: 'COUNT',
      })) {
        count += page.Count ?? 0;
      }
      return count;
    },
  };
}

function signupOf(item: Record<string, unknown>): Signup {
  return {
    email: String(item.email),
    position: Number(item.position),
    signedUpAt: String(item.signedUpAt ?? item.claimedAt ?? ''),
    firstName: typeof item.firstName === 'string' ? item.firstName : undefined,
    signupType: typeof item.signupType === 'string' ? item.signupType : undefined,
    newsletter: item.newsletter !== false,
    welcome: typeof item.welcome === 'string' ? (item.welcome as WelcomeState) : undefined,
  };
}

function entryOf(item: Record<string, unknown>): WaitlistEntry {
  const signup = signupOf(item);
  return {
    id: signup.position,
    position: signup.position,
    email: String(item.email ?? ''),
    firstName: signup.firstName,
    signupType: signup.signupType,
    newsletter: signup.newsletter,
    signedUpAt: signup.signedUpAt,
    welcome: signup.welcome,
  };
}

/**
 * Erasure (decision 019): removes every waitlist item that names the address: its signup
 * (pending or with a place), the item leading from its place to it, and its confirmation
 * links. The place stays taken (the counter is not given back). Returns how many items went.
 */
export async function eraseWaitlistAddress(doc: DynamoDBDocumentClient, tableName: string, email: string): Promise<number> {
  const items = await scanItems(doc, tableName, { expression: 'email = :e OR pk = :signup', values: { ':e': email, ':signup': signupKey(email) } });
  return deleteItems(doc, tableName, ['pk'], items);
}
