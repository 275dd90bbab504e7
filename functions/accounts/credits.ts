// The credit ledger (decision 021): a client's spendable balance and the append-only entries that
// explain it. Every change is one TransactWriteItems of an idempotency guard for its key, the
// ledger entry and the balance written under a condition, so a balance can never go negative and
// a repeated request applies once, whatever runs at the same time.
import { randomUUID } from 'node:crypto';
import { GetCommand, QueryCommand, TransactWriteCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { LedgerKind } from '../../events/account-values';
import type { AuditEntry, LedgerEntry, LedgerPage } from '../../events/accounts';
import { ConflictError, NotFoundError, ValidationError } from '../shared/errors';
import { accountKeys } from './keys';

/** The admin making a change. */
export interface Actor {
  sub: string;
  email: string;
}

export interface LedgerResult {
  entry: LedgerEntry;
  balance: number;
  /** True when the key was seen before: the first result, nothing written again. */
  replayed: boolean;
}

/** A reserve larger than the balance: 409 with both figures. */
export class InsufficientCreditsError extends ConflictError {
  constructor(
    readonly needed: number,
    readonly balance: number,
  ) {
    super(`Not enough credits: this needs ${needed} and your balance is ${balance}.`);
  }
}

const KEY_REUSED_MESSAGE = 'This idempotency key was already used for a different credit change. Use a new key.';
const NO_RESERVATION_MESSAGE = 'This generation has no reserved credits left to commit or release.';
const NO_BALANCE_MESSAGE = 'This account has no credit balance: only client accounts hold credits.';

/** Attempts of one ledger change when other changes of the same balance win the race. */
const MAX_ATTEMPTS = 60;

interface Change {
  credits: number;
  key: string;
  reason: string;
  generationId?: string;
  by?: Actor;
}

interface Guard {
  kind: LedgerKind;
  credits: number;
  generationId?: string;
  entry: LedgerEntry;
  balance: number;
}

const MAX_KEY_LENGTH = 255;
const MAX_REASON_LENGTH = 200;

function checkChange(kind: LedgerKind, change: Change): void {
  if (!Number.isSafeInteger(change.credits) || change.credits < 1) {
    throw new ValidationError(`credits must be a whole number of at least 1 (got ${String(change.credits)})`);
  }
  if (typeof change.key !== 'string' || !change.key || change.key.length > MAX_KEY_LENGTH) {
    throw new ValidationError(`key must be 1 to ${MAX_KEY_LENGTH} characters`);
  }
  if (typeof change.reason !== 'string' || !change.reason.trim() || change.reason.length > MAX_REASON_LENGTH) {
    throw new ValidationError(`reason must be 1 to ${MAX_REASON_LENGTH} characters`);
  }
  if (kind !== 'grant' && (typeof change.generationId !== 'string' || !change.generationId)) {
    throw new ValidationError(`a ${kind} needs the generationId it belongs to`);
  }
}

/** The change a ledger entry makes to the spendable balance. */
const deltaOf = (kind: LedgerKind, credits: number) => (kind === 'grant' || kind === 'release' ? credits : kind === 'reserve' ? -credits : 0);

/** The items of one ledger entry: the entry itself and its key's guard, both written once. */
export function ledgerWrite(accountId: string, kind: LedgerKind, change: Change, balanceAfter: number, seq: number, at: string) {
  const entry: LedgerEntry = {
    id: randomUUID(),
    kind,
    credits: deltaOf(kind, change.credits),
    balanceAfter,
    reason: change.reason,
    at,
    ...(change.by ? { by: change.by.email } : {}),
    ...(change.generationId ? { generationId: change.generationId } : {}),
  };
  const guard: Guard = { kind, credits: change.credits, ...(change.generationId ? { generationId: change.generationId } : {}), entry, balance: balanceAfter };
  return {
    entry,
    entryItem: { ...accountKeys.ledger(accountId, seq), ...entry },
    guardItem: { ...accountKeys.guard(accountId, change.key), ...guard },
  };
}

const cursorOf = (sk: string) => Buffer.from(sk, 'utf8').toString('base64url');
function skOfCursor(cursor: string): string {
  const sk = Buffer.from(cursor, 'base64url').toString('utf8');
  if (!sk.startsWith(accountKeys.ledgerPrefix)) throw new ValidationError('cursor is not one this list gave out');
  return sk;
}

type CancelReason = { Code?: string } | undefined;
const reasonsOf = (err: unknown): CancelReason[] | undefined =>
  (err as { name?: string })?.name === 'TransactionCanceledException' ? ((err as { CancellationReasons?: CancelReason[] }).CancellationReasons ?? []) : undefined;

export type CreditLedger = ReturnType<typeof creditLedger>;

export function creditLedger(doc: DynamoDBDocumentClient, tableName: string, now: () => Date = () => new Date()) {
  const readBalance = async (accountId: string): Promise<{ credits: number; seq: number } | undefined> => {
    const out = await doc.send(new GetCommand({ TableName: tableName, Key: accountKeys.balance(accountId), ConsistentRead: true }));
    return out.Item ? { credits: Number(out.Item.credits), seq: Number(out.Item.seq ?? 0) } : undefined;
  };

  const replay = async (accountId: string, kind: LedgerKind, change: Change): Promise<LedgerResult | undefined> => {
    const out = await doc.send(new GetCommand({ TableName: tableName, Key: accountKeys.guard(accountId, change.key), ConsistentRead: true }));
    const guard = out.Item as Guard | undefined;
    if (!guard) return undefined;
    if (guard.kind !== kind || guard.credits !== change.credits || (guard.generationId ?? undefined) !== (change.generationId ?? undefined)) {
      throw new ConflictError(KEY_REUSED_MESSAGE);
    }
    return { entry: guard.entry, balance: guard.balance, replayed: true };
  };

  /**
   * Writes one entry: reads the balance, then writes guard + entry + balance in one transaction
   * whose balance condition is the balance it read, by its sequence number (so `balanceAfter` is
   * exact, never below zero, and entries number 1, 2, 3...); a lost race reads again and retries.
   */
  const apply = async (accountId: string, kind: LedgerKind, change: Change): Promise<LedgerResult> => {
    checkChange(kind, change);
    for (let attempt = 1; ; attempt++) {
      const earlier = await replay(accountId, kind, change);
      if (earlier) return earlier;
      const seen = await readBalance(accountId);
      if (seen === undefined) throw new NotFoundError(NO_BALANCE_MESSAGE);
      const after = seen.credits + deltaOf(kind, change.credits);
      if (kind === 'reserve' && after < 0) throw new InsufficientCreditsError(change.credits, seen.credits);
      const at = now().toISOString();
      const seq = seen.seq + 1;
      const { entry, entryItem, guardItem } = ledgerWrite(accountId, kind, change, after, seq, at);

      const items: NonNullable<ConstructorParameters<typeof TransactWriteCommand>[0]['TransactItems']> = [
        { Put: { TableName: tableName, Item: guardItem, ConditionExpression: 'attribute_not_exists(pk)' } },
        { Put: { TableName: tableName, Item: entryItem, ConditionExpression: 'attribute_not_exists(pk)' } },
        {
          Update: {
            TableName: tableName,
            Key: accountKeys.balance(accountId),
            UpdateExpression: 'SET credits = :after, seq = :seq, updatedAt = :at',
            // Never below zero: the balance must still be the one read, and hold the reserve.
            ConditionExpression: kind === 'reserve' ? 'seq = :seen AND credits >= :n' : 'seq = :seen',
            ExpressionAttributeValues: {
              ':after': after,
              ':seq': seq,
              ':seen': seen.seq,
              ':at': at,
              ...(kind === 'reserve' ? { ':n': change.credits } : {}),
            },
          },
        },
      ];
      if (kind !== 'grant') {
        const generation = accountKeys.reservation(accountId, change.generationId!);
        items.push({
          Update:
            kind === 'reserve'
              ? {
                  TableName: tableName,
                  Key: generation,
                  UpdateExpression: 'ADD reserved :n, #open :n SET generationId = :g',
                  ExpressionAttributeNames: { '#open': 'open' },
                  ExpressionAttributeValues: { ':n': change.credits, ':g': change.generationId },
                }
              : {
                  // Commit and release together can never exceed what was reserved.
                  TableName: tableName,
                  Key: generation,
                  UpdateExpression: `ADD #open :minus, ${kind === 'commit' ? 'committed' : 'released'} :n`,
                  ConditionExpression: '#open >= :n',
                  ExpressionAttributeNames: { '#open': 'open' },
                  ExpressionAttributeValues: { ':n': change.credits, ':minus': -change.credits },
                },
        });
      }
      if (kind === 'grant' && change.by) {
        const audit: AuditEntry = { at, by: change.by.email, action: 'credits-granted', detail: `${change.credits} credits: ${change.reason}` };
        items.push({ Put: { TableName: tableName, Item: { ...accountKeys.audit(accountId, at, entry.id), ...audit, bySub: change.by.sub } } });
      }

      try {
        await doc.send(new TransactWriteCommand({ TransactItems: items }));
        return { entry, balance: after, replayed: false };
      } catch (err) {
        const reasons = reasonsOf(err);
        if (!reasons && (err as Error)?.name !== 'TransactionConflictException') throw err;
        const keyTaken = reasons?.[0]?.Code === 'ConditionalCheckFailed';
        if (!keyTaken && reasons?.[3]?.Code === 'ConditionalCheckFailed' && kind !== 'reserve' && kind !== 'grant') {
          throw new ConflictError(NO_RESERVATION_MESSAGE);
        }
        if (attempt >= MAX_ATTEMPTS) throw err;
        // Another change of this balance (or this key) won: read again after a short random pause.
        await new Promise((resolve) => setTimeout(resolve, Math.random() * Math.min(200, 10 * attempt)));
      }
    }
  };

  return {
    async balance(accountId: string): Promise<number> {
      const balance = await readBalance(accountId);
      if (balance === undefined) throw new NotFoundError(NO_BALANCE_MESSAGE);
      return balance.credits;
    },

    /** Adds credits; an admin's grant (`by`) writes its audit entry in the same transaction. */
    grant(accountId: string, change: { credits: number; key: string; reason: string; by?: Actor }): Promise<LedgerResult> {
      return apply(accountId, 'grant', change);
    },

    /** Takes credits from the balance for a generation; InsufficientCreditsError when the balance is short. */
    reserve(accountId: string, change: { credits: number; key: string; generationId: string; reason: string }): Promise<LedgerResult> {
      return apply(accountId, 'reserve', change);
    },

    /** Makes (part of) a generation's reservation final: the balance does not change. */
    commit(accountId: string, change: { credits: number; key: string; generationId: string; reason: string }): Promise<LedgerResult> {
      return apply(accountId, 'commit', change);
    },

    /** Returns (part of) a generation's reservation to the balance. */
    release(accountId: string, change: { credits: number; key: string; generationId: string; reason: string }): Promise<LedgerResult> {
      return apply(accountId, 'release', change);
    },

    /** What a generation has reserved, committed and released so far (undefined when it reserved nothing). */
    async reservation(accountId: string, generationId: string): Promise<{ reserved: number; committed: number; released: number; open: number } | undefined> {
      const out = await doc.send(new GetCommand({ TableName: tableName, Key: accountKeys.reservation(accountId, generationId), ConsistentRead: true }));
      if (!out.Item) return undefined;
      const n = (v: unknown) => (typeof v === 'number' ? v : 0);
      return { reserved: n(out.Item.reserved), committed: n(out.Item.committed), released: n(out.Item.released), open: n(out.Item.open) };
    },

    /** One page of the ledger, newest first; `cursor` is the previous page's `nextCursor`. */
    async entries(accountId: string, page: { limit: number; cursor?: string }): Promise<LedgerPage> {
      const limit = Math.max(1, Math.min(100, Math.floor(page.limit)));
      const after = page.cursor ? skOfCursor(page.cursor) : undefined;
      const out = await doc.send(
        new QueryCommand({
          TableName: tableName,
          KeyConditionExpression: after ? 'pk = :pk AND sk BETWEEN :from AND :to' : 'pk = :pk AND begins_with(sk, :prefix)',
          ExpressionAttributeValues: after
            ? { ':pk': accountKeys.pk(accountId), ':from': accountKeys.ledgerPrefix, ':to': after }
            : { ':pk': accountKeys.pk(accountId), ':prefix': accountKeys.ledgerPrefix },
          ScanIndexForward: false,
          // One more than asked: tells whether another page follows (the cursor's own entry is skipped).
          Limit: limit + (after ? 2 : 1),
          ConsistentRead: true,
        }),
      );
      let items = out.Items ?? [];
      if (after && items[0]?.sk === after) items = items.slice(1);
      const pageItems = items.slice(0, limit);
      const entries = pageItems.map(toEntry);
      const more = items.length > limit;
      return more ? { entries, nextCursor: cursorOf(String(pageItems[pageItems.length - 1].sk)) } : { entries };
    },
  };
}

/** A stored ledger item as the API shows it. */
export function toEntry(item: Record<string, unknown>): LedgerEntry {
  return {
    id: String(item.id),
    kind: item.kind as LedgerKind,
    credits: Number(item.credits),
    balanceAfter: Number(item.balanceAfter),
    reason: String(item.reason),
    at: String(item.at),
    ...(typeof item.by === 'string' ? { by: item.by } : {}),
    ...(typeof item.generationId === 'string' ? { generationId: item.generationId } : {}),
  };
}
