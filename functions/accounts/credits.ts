// The credit ledger (decision 021): a client's spendable balance and the append-only entries that
// explain it. Every change is one TransactWriteItems of an idempotency guard for its key, the
// ledger entry and the balance written under a condition, so a balance can never go negative and
// a repeated request applies once, whatever runs at the same time. Credits come in lots (decision
// 036): each grant records what one of its credits is worth, the balance holds its open lots
// oldest first, and spending takes the oldest first. Plan credits expire (decision 043): every
// change first drops the lots whose time ran out with an `expire` entry in the same transaction,
// so the stored balance always equals its lots, and readers never count an expired lot. A
// take-back (decision 049) also claims its source's credits that running generations hold
// reserved: a release drops them instead of returning them, a commit spends them and says so; and
// it counts the source's expired credits apart from the spent ones (the shortfall is spent only).
import { randomUUID } from 'node:crypto';
import { GetCommand, QueryCommand, TransactWriteCommand, type DynamoDBDocumentClient, type TransactWriteCommandInput } from '@aws-sdk/lib-dynamodb';
import type { GrantCategory, LedgerKind } from '../../events/account-values';
import type { AuditEntry, LedgerEntry, LedgerPage } from '../../events/accounts';
import { CREDIT_LOT_KINDS, PLANS, PROMOTIONAL_CREDIT_VALUE_MICROS, STARTING_PLAN, creditValueMicros, planLot, type CreditLot, type PlanId } from '../../events/plans';
import { ConflictError, NotFoundError, ValidationError } from '../shared/errors';
import { log } from '../shared/log';
import { accountKeys } from './keys';

/** The admin making a change. */
export interface Actor {
  sub: string;
  email: string;
}

/** Credits of one lot: on a balance (oldest first), held by a reservation, or moved by a change. */
export interface LotCredits extends CreditLot {
  credits: number;
}

/** One write of another table, made in the same transaction as a ledger change (`commitOne`). */
export type LinkedWrite = NonNullable<TransactWriteCommandInput['TransactItems']>[number];

export interface LedgerResult {
  entry: LedgerEntry;
  balance: number;
  /** The credits the change moved, by lot: granted, reserved, committed or released (returned to the balance). */
  lots: LotCredits[];
  /**
   * A commit's or release's credits that a take-back had claimed (decision 049): committed, they
   * were spent after their purchase was refunded; released, they were dropped, not returned.
   */
  claimed?: LotCredits[];
  /** True when the key was seen before: the first result, nothing written again. */
  replayed: boolean;
}

/**
 * What a take-back did with the credits it asked for (decision 049): `takenBack` were removed from
 * the client's reach (from the balance, and `reserved` of them claimed from running generations);
 * `expired` had expired unspent; `shortfall` had been spent. `takenBack + expired + shortfall` is
 * the credits asked.
 */
export interface TakeBackResult {
  entry: LedgerEntry;
  balance: number;
  takenBack: number;
  reserved: number;
  expired: number;
  shortfall: number;
  replayed: boolean;
}

/** What `expire` dropped: the expired lots and the `expire` entry, when anything was due. */
export interface ExpireResult {
  entry?: LedgerEntry;
  balance: number;
  expired: LotCredits[];
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

/**
 * A write made with a commit (`commitOne`) was refused by its own condition while the commit's key
 * was new: nothing was written. For a license, it exists already without its commit.
 */
export class LinkedWriteRefusedError extends Error {
  override name = 'LinkedWriteRefusedError';
  constructor(readonly index: number) {
    super(`the write made with this commit (number ${index}) was refused by its condition`);
  }
}

const KEY_REUSED_MESSAGE = 'This idempotency key was already used for a different credit change. Use a new key.';
const NO_RESERVATION_MESSAGE = 'This generation has no reserved credits left to commit or release.';
const NO_BALANCE_MESSAGE = 'This account has no credit balance: only client accounts hold credits.';

/** Attempts of one ledger change when other changes of the same balance win the race. */
const MAX_ATTEMPTS = 60;

/** The kinds a caller asks for; `expire` entries are written by the ledger itself. */
type ChangeKind = Exclude<LedgerKind, 'expire'>;

interface Change {
  credits: number;
  key: string;
  reason: string;
  generationId?: string;
  /** A grant's lot: what each of its credits is worth. */
  lot?: CreditLot;
  by?: Actor;
  /** An admin grant's reason category, named in its audit entry. */
  category?: GrantCategory;
  /** A take-back's source: the lots whose unspent credits it removes. */
  source?: string;
}

interface Guard {
  kind: LedgerKind;
  credits: number;
  generationId?: string;
  lot?: CreditLot;
  source?: string;
  entry: LedgerEntry;
  balance: number;
  /** The credits the change moved (absent on guards written before lots). */
  lots?: LotCredits[];
  /** A take-back's outcome. */
  takenBack?: number;
  reservedTakenBack?: number;
  expiredTakenBack?: number;
  shortfall?: number;
  /** A commit's or release's credits a take-back had claimed. */
  claimed?: LotCredits[];
}

const MAX_KEY_LENGTH = 255;
const MAX_REASON_LENGTH = 200;
const MAX_SOURCE_LENGTH = 200;
const ISO_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})$/;

const checkSource = (source: unknown, name: string) => {
  if (typeof source !== 'string' || !source.trim() || source.length > MAX_SOURCE_LENGTH) {
    throw new ValidationError(`${name} must be 1 to ${MAX_SOURCE_LENGTH} characters (the purchase the credits came from, e.g. checkout:cs_123)`);
  }
};

function checkLot(lot: CreditLot | undefined): void {
  if (!lot || typeof lot !== 'object') throw new ValidationError('a grant needs its lot: the value of one credit and its kind');
  if (!Number.isSafeInteger(lot.valueMicros) || lot.valueMicros < 0) {
    throw new ValidationError(`lot.valueMicros must be a whole number of micro-dollars, 0 or more (got ${String(lot.valueMicros)})`);
  }
  if (!CREDIT_LOT_KINDS.includes(lot.kind)) throw new ValidationError(`lot.kind must be one of ${CREDIT_LOT_KINDS.join(', ')}`);
  if (lot.noRoyalty !== undefined && lot.noRoyalty !== 'testing-grant') throw new ValidationError("lot.noRoyalty can only be 'testing-grant'");
  if (lot.source !== undefined) checkSource(lot.source, 'lot.source');
  if (lot.expiresAt !== undefined && (typeof lot.expiresAt !== 'string' || !ISO_TIME.test(lot.expiresAt) || Number.isNaN(Date.parse(lot.expiresAt)))) {
    throw new ValidationError(`lot.expiresAt must be an ISO time such as 2027-01-31T23:59:59.999Z (got ${String(lot.expiresAt)})`);
  }
  // A promotional credit never earns more than the cheapest paid credit (decision 036).
  if (lot.kind === 'promotional' && lot.valueMicros > PROMOTIONAL_CREDIT_VALUE_MICROS) {
    throw new ValidationError(`a promotional lot is worth at most ${PROMOTIONAL_CREDIT_VALUE_MICROS} micro-dollars a credit, the cheapest paid credit`);
  }
}

function checkChange(kind: ChangeKind, change: Change): void {
  if (!Number.isSafeInteger(change.credits) || change.credits < 1) {
    throw new ValidationError(`credits must be a whole number of at least 1 (got ${String(change.credits)})`);
  }
  if (typeof change.key !== 'string' || !change.key || change.key.length > MAX_KEY_LENGTH) {
    throw new ValidationError(`key must be 1 to ${MAX_KEY_LENGTH} characters`);
  }
  if (typeof change.reason !== 'string' || !change.reason.trim() || change.reason.length > MAX_REASON_LENGTH) {
    throw new ValidationError(`reason must be 1 to ${MAX_REASON_LENGTH} characters`);
  }
  if (kind === 'grant') checkLot(change.lot);
  if (kind === 'take-back') checkSource(change.source, 'source');
  if (kind !== 'grant' && kind !== 'take-back' && (typeof change.generationId !== 'string' || !change.generationId)) {
    throw new ValidationError(`a ${kind} needs the generationId it belongs to`);
  }
}

/** The change a ledger entry makes to the spendable balance (an expire or a take-back removes what it found). */
const deltaOf = (kind: LedgerKind, credits: number) => (kind === 'grant' || kind === 'release' ? credits : kind === 'commit' ? 0 : -credits);

// ---- Lots (decision 036) ------------------------------------------------------------------------

const lotOf = (lot: CreditLot, credits: number): LotCredits => ({
  credits,
  valueMicros: lot.valueMicros,
  kind: lot.kind,
  ...(lot.noRoyalty ? { noRoyalty: lot.noRoyalty } : {}),
  ...(lot.source ? { source: lot.source } : {}),
  ...(lot.expiresAt ? { expiresAt: lot.expiresAt } : {}),
});
/** The same grant's credits: a repeated key must name the same value, kind and source (its expiry may be worked out again). */
const sameGrant = (a: CreditLot, b: CreditLot) => a.valueMicros === b.valueMicros && a.kind === b.kind && a.noRoyalty === b.noRoyalty && a.source === b.source;
/** Lots that may merge: the same grant terms and the same expiry. */
const sameLot = (a: CreditLot, b: CreditLot) => sameGrant(a, b) && a.expiresAt === b.expiresAt;
const creditsIn = (lots: readonly LotCredits[]) => lots.reduce((n, l) => n + l.credits, 0);

/** Whether a lot's credits stopped being spendable at `at` (ms): its expiry is at or before it. */
const isExpired = (lot: CreditLot, at: number) => lot.expiresAt !== undefined && Date.parse(lot.expiresAt) <= at;

/** A balance's lots split into the spendable ones and those whose time ran out, both oldest first. */
export function splitExpired(lots: readonly LotCredits[], at: number): { live: LotCredits[]; expired: LotCredits[] } {
  return { live: compactLots(lots.filter((l) => !isExpired(l, at))), expired: compactLots(lots.filter((l) => isExpired(l, at))) };
}

/**
 * The spendable credits of a stored balance item at `at` (ms): its lots less the expired ones, or
 * its count when it has no lots adding up to it (stored before lots, which never expire).
 */
export function spendableCredits(item: Record<string, unknown>, at: number): number {
  const credits = Number(item.credits);
  const lots = storedLots(item.lots);
  if (!lots || creditsIn(lots) !== credits) return credits;
  return creditsIn(splitExpired(lots, at).live);
}

/** Takes up to `n` credits from the lots of `source`, oldest first; the others stay as they are. */
export function takeFromSource(lots: readonly LotCredits[], source: string, n: number): { taken: LotCredits[]; rest: LotCredits[] } {
  const taken: LotCredits[] = [];
  const rest: LotCredits[] = [];
  let left = n;
  for (const lot of lots) {
    const take = lot.source === source ? Math.min(left, lot.credits) : 0;
    if (take > 0) taken.push(lotOf(lot, take));
    if (lot.credits > take) rest.push(lotOf(lot, lot.credits - take));
    left -= take;
  }
  return { taken: compactLots(taken), rest: compactLots(rest) };
}

/** The words for a lot's credits in an expire entry: "Starter plan credit", "Free plan credit". */
function lotName(lot: CreditLot): string {
  if (lot.kind === 'promotional') return lot.valueMicros === PROMOTIONAL_CREDIT_VALUE_MICROS && !lot.noRoyalty ? 'Free plan credit' : 'promotional credit';
  const plan = PLANS.find((p) => p.monthlyPriceCents > 0 && creditValueMicros(p.id) === lot.valueMicros);
  return plan ? `${plan.name} plan credit` : 'plan credit';
}

/** An expire entry's reason, naming what expired: "12 Starter plan credits expired". */
export function expiryReason(lots: readonly LotCredits[]): string {
  const byName = new Map<string, number>();
  for (const lot of lots) byName.set(lotName(lot), (byName.get(lotName(lot)) ?? 0) + lot.credits);
  const parts = [...byName].map(([name, n]) => `${n} ${name}${n === 1 ? '' : 's'}`);
  const words = parts.length === 1 ? parts[0] : `${parts.slice(0, -1).join(', ')} and ${parts[parts.length - 1]}`;
  return `${words} expired`.slice(0, MAX_REASON_LENGTH);
}

/**
 * Lots as stored: empty ones dropped and neighbours of the same value and kind merged, so the
 * balance item stays small; the order (oldest first) is kept.
 */
export function compactLots(lots: readonly LotCredits[]): LotCredits[] {
  const out: LotCredits[] = [];
  for (const lot of lots) {
    if (lot.credits <= 0) continue;
    const last = out[out.length - 1];
    if (last && sameLot(last, lot)) out[out.length - 1] = { ...last, credits: last.credits + lot.credits };
    else out.push(lotOf(lot, lot.credits));
  }
  return out;
}

/** Takes `n` credits from the oldest lots first: what was taken and what is left, both oldest first. */
export function takeOldest(lots: readonly LotCredits[], n: number): { taken: LotCredits[]; rest: LotCredits[] } {
  const taken: LotCredits[] = [];
  const rest: LotCredits[] = [];
  let left = n;
  for (const lot of lots) {
    const take = Math.min(left, lot.credits);
    if (take > 0) taken.push(lotOf(lot, take));
    if (lot.credits > take) rest.push(lotOf(lot, lot.credits - take));
    left -= take;
  }
  if (left > 0) throw new Error(`the lots hold ${n - left} credits, not the ${n} asked for`);
  return { taken: compactLots(taken), rest: compactLots(rest) };
}

/** Stored lots, or undefined when the item has none (written before lots). */
function storedLots(value: unknown): LotCredits[] | undefined {
  if (!Array.isArray(value)) return undefined;
  return compactLots(
    value.flatMap((l: Record<string, unknown>) =>
      l && typeof l === 'object' && CREDIT_LOT_KINDS.includes(l.kind as CreditLot['kind'])
        ? [
            lotOf(
              {
                valueMicros: Number(l.valueMicros),
                kind: l.kind as CreditLot['kind'],
                ...(l.noRoyalty === 'testing-grant' ? { noRoyalty: 'testing-grant' as const } : {}),
                ...(typeof l.source === 'string' ? { source: l.source } : {}),
                ...(typeof l.expiresAt === 'string' ? { expiresAt: l.expiresAt } : {}),
              },
              Number(l.credits),
            ),
          ]
        : [],
    ),
  );
}

/**
 * The lots behind `credits` (decision 036). Items written before lots have none: their credits
 * are one lot of the account's plan now (`planLot`: a paid plan's credit value, the Free plan's
 * promotional value). Lots that do not add up to `credits` (never written so) are trimmed from
 * the newest, or completed with such a lot, so what is spent always matches the count.
 */
export function lotsBehind(credits: number, stored: LotCredits[] | undefined, plan: PlanId): LotCredits[] {
  if (credits <= 0) return [];
  const lots = stored ?? [];
  const held = creditsIn(lots);
  if (held === credits) return lots;
  if (held > credits) return takeOldest(lots, credits).taken;
  return compactLots([...lots, lotOf(planLot(plan), credits - held)]);
}

/**
 * The items of one ledger entry: the entry itself and its key's guard, both written once.
 * `delta` is the entry's change to the balance when it is not the asked credits (a take-back's);
 * `guard` adds to the guard what a replay answers (the balance after the whole write, a take-back's outcome).
 */
export function ledgerWrite(
  accountId: string,
  kind: ChangeKind,
  change: Change,
  balanceAfter: number,
  seq: number,
  at: string,
  lots: LotCredits[],
  options: { delta?: number; guard?: Partial<Guard>; stored?: Record<string, unknown> } = {},
) {
  const entry: LedgerEntry = {
    id: randomUUID(),
    kind,
    credits: options.delta ?? deltaOf(kind, change.credits),
    balanceAfter,
    reason: change.reason,
    at,
    ...(change.by ? { by: change.by.email } : {}),
    ...(change.generationId ? { generationId: change.generationId } : {}),
    ...(kind === 'grant' && change.lot?.expiresAt ? { expiresAt: change.lot.expiresAt } : {}),
  };
  const guard: Guard = {
    kind,
    credits: change.credits,
    ...(change.generationId ? { generationId: change.generationId } : {}),
    ...(change.lot ? { lot: lotOf(change.lot, 1) } : {}),
    ...(change.source ? { source: change.source } : {}),
    entry,
    balance: balanceAfter,
    lots,
    ...options.guard,
  };
  // The entry keeps the lots it moved (and a grant's category): the ledger explains every lot too.
  // An admin's grant keeps the admin's Cognito sub beside their email (the console's view reads it).
  const stored = { ...entry, lots, ...(change.category ? { category: change.category } : {}), ...(change.by ? { bySub: change.by.sub } : {}) };
  return {
    entry,
    // `options.stored`: what else the entry explains (a take-back's claims, a release's dropped credits).
    entryItem: { ...accountKeys.ledger(accountId, seq), ...stored, ...options.stored },
    guardItem: { ...accountKeys.guard(accountId, change.key), ...guard },
  };
}

/** The item of an `expire` entry: the lots whose time ran out leave the balance (no key: the balance's sequence makes it once). */
function expireWrite(accountId: string, expired: LotCredits[], balanceAfter: number, seq: number, at: string) {
  const entry: LedgerEntry = { id: randomUUID(), kind: 'expire', credits: -creditsIn(expired), balanceAfter, reason: expiryReason(expired), at };
  return { entry, entryItem: { ...accountKeys.ledger(accountId, seq), ...entry, lots: expired } };
}

/**
 * The writes that count expired credits by their source (decision 049), made in the transaction of
 * their `expire` entry: a later take-back of that purchase counts them as expired, not spent.
 */
export function expiryTallyWrites(
  tableName: string,
  accountId: string,
  expired: readonly LotCredits[],
  at: string,
  /** A take-back's source and how many of its expired credits it counted (one write per source). */
  counted?: { source: string; credits: number },
): LinkedWrite[] {
  const bySource = new Map<string, { expired: number; counted: number }>();
  const of = (source: string) => bySource.get(source) ?? bySource.set(source, { expired: 0, counted: 0 }).get(source)!;
  for (const lot of expired) if (lot.source) of(lot.source).expired += lot.credits;
  if (counted && counted.credits > 0) of(counted.source).counted += counted.credits;
  return [...bySource].map(([source, n]) => ({
    Update: {
      TableName: tableName,
      Key: accountKeys.source(accountId, source),
      UpdateExpression: 'ADD expired :n, expiredTakenBack :c SET #source = :s, updatedAt = :at',
      ExpressionAttributeNames: { '#source': 'source' },
      ExpressionAttributeValues: { ':n': n.expired, ':c': n.counted, ':s': source, ':at': at },
    },
  }));
}

/**
 * Takes `n` of a reservation's open credits: its unclaimed ones (`open`) and those a take-back
 * claimed (`claimed`, decision 049). A commit spends unclaimed credits first, a release drops
 * claimed ones first, so a refunded credit is spent only when nothing else is left to spend.
 */
export function takeHeld(
  open: readonly LotCredits[],
  claimed: readonly LotCredits[],
  n: number,
  first: 'open' | 'claimed',
): { fromOpen: LotCredits[]; fromClaimed: LotCredits[]; openAfter: LotCredits[]; claimedAfter: LotCredits[] } {
  const firstLots = first === 'open' ? open : claimed;
  const fromFirst = takeOldest(firstLots, Math.min(n, creditsIn(firstLots)));
  const secondLots = first === 'open' ? claimed : open;
  const fromSecond = takeOldest(secondLots, n - creditsIn(fromFirst.taken));
  return first === 'open'
    ? { fromOpen: fromFirst.taken, openAfter: fromFirst.rest, fromClaimed: fromSecond.taken, claimedAfter: fromSecond.rest }
    : { fromClaimed: fromFirst.taken, claimedAfter: fromFirst.rest, fromOpen: fromSecond.taken, openAfter: fromSecond.rest };
}

const cursorOf = (sk: string) => Buffer.from(sk, 'utf8').toString('base64url');
function skOfCursor(cursor: string): string {
  const sk = Buffer.from(cursor, 'base64url').toString('utf8');
  if (!sk.startsWith(accountKeys.ledgerPrefix)) throw new ValidationError('cursor is not one this list gave out');
  return sk;
}

/** A short random pause before reading a balance again after losing a race. */
const pause = (attempt: number) => new Promise((resolve) => setTimeout(resolve, Math.random() * Math.min(200, 10 * attempt)));

/** A ledger result as callers see it (the guard read or written stays inside). */
const withoutGuard = ({ guard: _guard, ...result }: LedgerResult & { guard?: Guard }): LedgerResult => result;

type CancelReason = { Code?: string } | undefined;
const reasonsOf = (err: unknown): CancelReason[] | undefined =>
  (err as { name?: string })?.name === 'TransactionCanceledException' ? ((err as { CancellationReasons?: CancelReason[] }).CancellationReasons ?? []) : undefined;

interface Reservation {
  reserved: number;
  committed: number;
  released: number;
  open: number;
  /** The open credits no take-back claimed, by lot, oldest first; undefined on reservations made before lots. */
  lots?: LotCredits[];
  /** The open credits a take-back claimed (decision 049), by lot: part of `open`, never returned to the balance. */
  claimed: LotCredits[];
  /** All the credits take-backs ever claimed from it. */
  takenBack: number;
}

/** The balance as stored: its credits, sequence, lots, and the generations holding credits reserved. */
interface StoredBalance {
  credits: number;
  seq: number;
  lots?: LotCredits[];
  /** Generations with credits reserved and still open (decision 049: take-backs claim from them). */
  openReservations: string[];
}

export type CreditLedger = ReturnType<typeof creditLedger>;

export function creditLedger(doc: DynamoDBDocumentClient, tableName: string, now: () => Date = () => new Date()) {
  const readBalance = async (accountId: string): Promise<StoredBalance | undefined> => {
    const out = await doc.send(new GetCommand({ TableName: tableName, Key: accountKeys.balance(accountId), ConsistentRead: true }));
    if (!out.Item) return undefined;
    const open = Array.isArray(out.Item.openReservations) ? out.Item.openReservations.filter((g): g is string => typeof g === 'string') : [];
    return { credits: Number(out.Item.credits), seq: Number(out.Item.seq ?? 0), lots: storedLots(out.Item.lots), openReservations: open };
  };

  /** What became of a source's credits beyond the balance: how many expired, and how many of those take-backs counted already. */
  const readSource = async (accountId: string, source: string): Promise<{ expired: number; expiredTakenBack: number }> => {
    const out = await doc.send(new GetCommand({ TableName: tableName, Key: accountKeys.source(accountId, source), ConsistentRead: true }));
    const n = (v: unknown) => (typeof v === 'number' ? v : 0);
    return { expired: n(out.Item?.expired), expiredTakenBack: n(out.Item?.expiredTakenBack) };
  };

  const readReservation = async (accountId: string, generationId: string): Promise<Reservation | undefined> => {
    const out = await doc.send(new GetCommand({ TableName: tableName, Key: accountKeys.reservation(accountId, generationId), ConsistentRead: true }));
    if (!out.Item) return undefined;
    const n = (v: unknown) => (typeof v === 'number' ? v : 0);
    return {
      reserved: n(out.Item.reserved),
      committed: n(out.Item.committed),
      released: n(out.Item.released),
      open: n(out.Item.open),
      lots: storedLots(out.Item.openLots),
      claimed: storedLots(out.Item.takenBackLots) ?? [],
      takenBack: n(out.Item.takenBack),
    };
  };

  /** A reservation's unclaimed open credits, by lot (the rule of lotsBehind for one made before lots). */
  const unclaimedLots = (accountId: string, held: Reservation) => resolveLots(accountId, held.open - creditsIn(held.claimed), held.lots);

  /** The account's plan, for items written before lots (one profile read, only when needed). */
  const planOf = async (accountId: string): Promise<PlanId> => {
    const out = await doc.send(new GetCommand({ TableName: tableName, Key: accountKeys.profile(accountId), ProjectionExpression: '#plan', ExpressionAttributeNames: { '#plan': 'plan' } }));
    return typeof out.Item?.plan === 'string' ? (out.Item.plan as PlanId) : STARTING_PLAN;
  };

  /** `stored` when the item has lots adding up to `credits`; otherwise the lots behind them by the rule of lotsBehind. */
  const resolveLots = async (accountId: string, credits: number, stored: LotCredits[] | undefined): Promise<LotCredits[]> => {
    if (stored && creditsIn(stored) === credits) return stored;
    if (stored) log.warn('credit lots do not add up to the credits they hold', { accountId, credits, held: creditsIn(stored) });
    return credits > 0 ? lotsBehind(credits, stored, await planOf(accountId)) : [];
  };

  const replay = async (accountId: string, kind: ChangeKind, change: Change): Promise<(LedgerResult & { guard: Guard }) | undefined> => {
    const out = await doc.send(new GetCommand({ TableName: tableName, Key: accountKeys.guard(accountId, change.key), ConsistentRead: true }));
    const guard = out.Item as Guard | undefined;
    if (!guard) return undefined;
    const otherLot = guard.lot && change.lot && !sameGrant(guard.lot, change.lot);
    const otherSource = kind === 'take-back' && guard.source !== change.source;
    if (guard.kind !== kind || guard.credits !== change.credits || (guard.generationId ?? undefined) !== (change.generationId ?? undefined) || otherLot || otherSource) {
      throw new ConflictError(KEY_REUSED_MESSAGE);
    }
    const claimed = storedLots(guard.claimed);
    return { entry: guard.entry, balance: guard.balance, lots: storedLots(guard.lots) ?? [], ...(claimed?.length ? { claimed } : {}), replayed: true, guard };
  };

  /**
   * Writes one change: reads the balance (and the generation's reservation), then writes guard +
   * entries + balance (+ reservation) in one transaction whose conditions are the state it read:
   * the balance by its sequence number (so `balanceAfter` is exact, never below zero, and entries
   * number 1, 2, 3...), the reservation by its reserved and open counts (so the lots it takes are
   * the ones it read). Lots whose time ran out leave the balance first, in an `expire` entry just
   * before the change's; credits the change itself puts on the balance already expired (a
   * release of credits reserved before their expiry, a late grant) leave in one just after.
   * `linked` adds writes of the change's own (a license with the credit it consumes), given the
   * lots moved. A take-back (decision 049) also claims its source's credits held by the open
   * reservations the balance lists, under their own conditions, and counts its source's expired
   * credits (the source's tally item) apart from the spent ones. A lost race reads again and retries.
   */
  const apply = async (accountId: string, kind: ChangeKind, change: Change, linked?: (moved: LotCredits[]) => LinkedWrite[]): Promise<LedgerResult & { guard?: Guard }> => {
    checkChange(kind, change);
    const n = change.credits;
    const generation = kind === 'reserve' || kind === 'commit' || kind === 'release';
    for (let attempt = 1; ; attempt++) {
      const earlier = await replay(accountId, kind, change);
      if (earlier) return earlier;
      const seen = await readBalance(accountId);
      if (seen === undefined) throw new NotFoundError(NO_BALANCE_MESSAGE);
      const held = generation ? await readReservation(accountId, change.generationId!) : undefined;
      const when = now();
      const at = when.toISOString();
      const balanceLots = await resolveLots(accountId, seen.credits, seen.lots);
      const { live, expired } = splitExpired(balanceLots, when.getTime());
      const spendable = creditsIn(live);
      if (kind === 'reserve' && spendable < n) throw new InsufficientCreditsError(n, spendable);
      if ((kind === 'commit' || kind === 'release') && (held?.open ?? 0) < n) throw new ConflictError(NO_RESERVATION_MESSAGE);

      // Which credits move: a grant adds its lot last; a reserve takes the balance's oldest; a
      // commit takes the reservation's oldest unclaimed credits, then claimed ones (spent after a
      // take-back); a release drops claimed ones first, then puts unclaimed ones back first on the
      // balance (they were its oldest); a take-back removes its source's unspent ones, then claims
      // its source's credits that open reservations hold (decision 049).
      const heldLots = held ? await unclaimedLots(accountId, held) : [];
      let moved: LotCredits[];
      let claimed: LotCredits[] = [];
      let lotsAfter = live;
      let heldAfter = heldLots;
      let claimedAfter = held?.claimed ?? [];
      let openReservations = seen.openReservations;
      const claims: { generationId: string; held: Reservation; open: LotCredits[]; claimed: LotCredits[] }[] = [];
      let expiredCounted = 0;
      if (kind === 'grant') {
        moved = [lotOf(change.lot!, n)];
        lotsAfter = compactLots([...live, ...moved]);
      } else if (kind === 'reserve') {
        const { taken, rest } = takeOldest(live, n);
        moved = taken;
        lotsAfter = rest;
        heldAfter = compactLots([...heldLots, ...taken]);
        if (!openReservations.includes(change.generationId!)) openReservations = [...openReservations, change.generationId!];
      } else if (kind === 'take-back') {
        const { taken, rest } = takeFromSource(live, change.source!, n);
        moved = taken;
        lotsAfter = rest;
        let left = n - creditsIn(taken);
        for (const generationId of seen.openReservations) {
          if (left <= 0) break;
          const other = await readReservation(accountId, generationId);
          if (!other || other.open <= 0) continue;
          const from = takeFromSource(await unclaimedLots(accountId, other), change.source!, left);
          if (!from.taken.length) continue;
          left -= creditsIn(from.taken);
          claims.push({ generationId, held: other, open: from.rest, claimed: compactLots([...other.claimed, ...from.taken]) });
          claimed = compactLots([...claimed, ...from.taken]);
        }
        if (left > 0) {
          // Expired credits of the source were never spent: counted here, once (the tally's `expiredTakenBack`).
          const tally = await readSource(accountId, change.source!);
          const expiringNow = creditsIn(expired.filter((l) => l.source === change.source));
          expiredCounted = Math.min(left, Math.max(0, tally.expired + expiringNow - tally.expiredTakenBack));
        }
      } else {
        const take = takeHeld(heldLots, held!.claimed, n, kind === 'commit' ? 'open' : 'claimed');
        heldAfter = take.openAfter;
        claimedAfter = take.claimedAfter;
        claimed = take.fromClaimed;
        // A commit consumes both; a release returns only the unclaimed ones.
        moved = kind === 'commit' ? compactLots([...take.fromOpen, ...take.fromClaimed]) : take.fromOpen;
        if (kind === 'release') lotsAfter = compactLots([...take.fromOpen, ...live]);
        if (!heldAfter.length && !claimedAfter.length) openReservations = openReservations.filter((g) => g !== change.generationId);
      }
      // 0 - x, not -x: a take-back of nothing is 0, never -0. A release adds back only what it returns.
      const delta = kind === 'take-back' ? 0 - creditsIn(moved) : kind === 'release' ? creditsIn(moved) : deltaOf(kind, n);
      const late = splitExpired(lotsAfter, when.getTime());

      // The entries in order: what expired before, the change, what expired with it.
      let seq = seen.seq;
      let balance = seen.credits;
      const entryItems: Record<string, unknown>[] = [];
      if (expired.length) {
        balance -= creditsIn(expired);
        entryItems.push(expireWrite(accountId, expired, balance, ++seq, at).entryItem);
      }
      balance += delta;
      const changeSeq = ++seq;
      const afterChange = balance;
      if (late.expired.length) {
        balance -= creditsIn(late.expired);
        const lateItem = expireWrite(accountId, late.expired, balance, ++seq, at).entryItem;
        entryItems.push(lateItem);
      }
      const reservedTakenBack = kind === 'take-back' ? creditsIn(claimed) : 0;
      const outcome: Partial<Guard> =
        kind === 'take-back'
          ? {
              takenBack: creditsIn(moved) + reservedTakenBack,
              reservedTakenBack,
              expiredTakenBack: expiredCounted,
              shortfall: n - creditsIn(moved) - reservedTakenBack - expiredCounted,
            }
          : claimed.length
            ? { claimed }
            : {};
      // What the entry explains beyond the lots it moved: the credits claimed from generations, a
      // release's credits dropped, a commit's credits spent after a take-back.
      const explained: Record<string, unknown> =
        kind === 'take-back'
          ? {
              ...(claims.length ? { reservedTakenBack: claims.map((c) => ({ generationId: c.generationId, credits: creditsIn(c.claimed) - creditsIn(c.held.claimed) })) } : {}),
              ...(expiredCounted ? { expiredTakenBack: expiredCounted } : {}),
            }
          : claimed.length
            ? { [kind === 'commit' ? 'spentTakenBack' : 'droppedTakenBack']: claimed }
            : {};
      const { entry, entryItem, guardItem } = ledgerWrite(accountId, kind, change, afterChange, changeSeq, at, moved, {
        delta,
        guard: { balance, ...outcome },
        stored: explained,
      });
      entryItems.splice(expired.length ? 1 : 0, 0, entryItem);

      const items: LinkedWrite[] = [
        { Put: { TableName: tableName, Item: guardItem, ConditionExpression: 'attribute_not_exists(pk)' } },
        ...entryItems.map((Item) => ({ Put: { TableName: tableName, Item, ConditionExpression: 'attribute_not_exists(pk)' } })),
        {
          Update: {
            TableName: tableName,
            Key: accountKeys.balance(accountId),
            UpdateExpression: 'SET credits = :after, seq = :seq, lots = :lots, openReservations = :reservations, updatedAt = :at',
            // Never below zero: the balance must still be the one read, and hold the reserve.
            ConditionExpression: kind === 'reserve' ? 'seq = :seen AND credits >= :n' : 'seq = :seen',
            ExpressionAttributeValues: {
              ':after': balance,
              ':seq': seq,
              ':seen': seen.seq,
              ':lots': late.live,
              ':reservations': openReservations,
              ':at': at,
              ...(kind === 'reserve' ? { ':n': n } : {}),
            },
          },
        },
        ...expiryTallyWrites(tableName, accountId, [...expired, ...late.expired], at, kind === 'take-back' ? { source: change.source!, credits: expiredCounted } : undefined),
        // The credits claimed from each reservation, under the state it was read in.
        ...claims.map(
          (c): LinkedWrite => ({
            Update: {
              TableName: tableName,
              Key: accountKeys.reservation(accountId, c.generationId),
              UpdateExpression: 'ADD takenBack :c SET openLots = :held, takenBackLots = :claimed',
              ConditionExpression: 'reserved = :seenReserved AND #open = :seenOpen',
              ExpressionAttributeNames: { '#open': 'open' },
              ExpressionAttributeValues: {
                ':c': creditsIn(c.claimed) - creditsIn(c.held.claimed),
                ':held': c.open,
                ':claimed': c.claimed,
                ':seenReserved': c.held.reserved,
                ':seenOpen': c.held.open,
              },
            },
          }),
        ),
      ];
      if (generation) {
        // The reservation as it was read: a reserve creates it or adds to it; a commit and a
        // release take from its open credits, so together they never exceed what was reserved.
        const unchanged = held ? 'reserved = :seenReserved AND #open = :seenOpen' : 'attribute_not_exists(pk)';
        const counts = kind === 'reserve' ? 'reserved :n, #open :n' : `#open :minus, ${kind === 'commit' ? 'committed' : 'released'} :n`;
        items.push({
          Update: {
            TableName: tableName,
            Key: accountKeys.reservation(accountId, change.generationId!),
            UpdateExpression: `ADD ${counts} SET generationId = :g, openLots = :held${kind === 'reserve' ? '' : ', takenBackLots = :claimed'}`,
            ConditionExpression: unchanged,
            ExpressionAttributeNames: { '#open': 'open' },
            ExpressionAttributeValues: {
              ':n': n,
              ...(kind === 'reserve' ? {} : { ':minus': -n, ':claimed': claimedAfter }),
              ':g': change.generationId,
              ':held': heldAfter,
              ...(held ? { ':seenReserved': held.reserved, ':seenOpen': held.open } : {}),
            },
          },
        });
      }
      if (kind === 'grant' && change.by) {
        const what = change.category ? `${n} credits (${change.category})` : `${n} credits`;
        const audit: AuditEntry = { at, by: change.by.email, action: 'credits-granted', detail: `${what}: ${change.reason}` };
        items.push({ Put: { TableName: tableName, Item: { ...accountKeys.audit(accountId, at, entry.id), ...audit, bySub: change.by.sub } } });
      }
      const firstLinked = items.length;
      if (linked) items.push(...linked(moved));

      try {
        await doc.send(new TransactWriteCommand({ TransactItems: items }));
        return { entry, balance, lots: moved, ...(claimed.length && kind !== 'take-back' ? { claimed } : {}), replayed: false, guard: { kind, credits: n, entry, balance, ...outcome } };
      } catch (err) {
        const reasons = reasonsOf(err);
        if (!reasons && (err as Error)?.name !== 'TransactionConflictException') throw err;
        const keyTaken = reasons?.[0]?.Code === 'ConditionalCheckFailed';
        const refused = reasons?.findIndex((r, i) => i >= firstLinked && r?.Code === 'ConditionalCheckFailed') ?? -1;
        // A linked write refused while the key is new is its own state, not a race: retrying changes nothing.
        if (!keyTaken && refused >= 0) throw new LinkedWriteRefusedError(refused - firstLinked);
        if (attempt >= MAX_ATTEMPTS) throw err;
        // Another change of this balance (or this key) won: read again after a short random pause.
        await pause(attempt);
      }
    }
  };

  /** Drops the balance's expired lots with one `expire` entry, when any are due. */
  const expire = async (accountId: string): Promise<ExpireResult> => {
    for (let attempt = 1; ; attempt++) {
      const seen = await readBalance(accountId);
      if (seen === undefined) throw new NotFoundError(NO_BALANCE_MESSAGE);
      const when = now();
      const lots = await resolveLots(accountId, seen.credits, seen.lots);
      const { live, expired } = splitExpired(lots, when.getTime());
      if (!expired.length) return { balance: seen.credits, expired: [] };
      const at = when.toISOString();
      const balance = seen.credits - creditsIn(expired);
      const { entry, entryItem } = expireWrite(accountId, expired, balance, seen.seq + 1, at);
      try {
        await doc.send(
          new TransactWriteCommand({
            TransactItems: [
              { Put: { TableName: tableName, Item: entryItem, ConditionExpression: 'attribute_not_exists(pk)' } },
              ...expiryTallyWrites(tableName, accountId, expired, at),
              {
                Update: {
                  TableName: tableName,
                  Key: accountKeys.balance(accountId),
                  UpdateExpression: 'SET credits = :after, seq = :seq, lots = :lots, updatedAt = :at',
                  ConditionExpression: 'seq = :seen',
                  ExpressionAttributeValues: { ':after': balance, ':seq': seen.seq + 1, ':seen': seen.seq, ':lots': live, ':at': at },
                },
              },
            ],
          }),
        );
        return { entry, balance, expired };
      } catch (err) {
        if (!reasonsOf(err) && (err as Error)?.name !== 'TransactionConflictException') throw err;
        if (attempt >= MAX_ATTEMPTS) throw err;
        await pause(attempt);
      }
    }
  };

  /** The balance's spendable lots, oldest first, at this moment. */
  const liveLots = async (accountId: string): Promise<LotCredits[]> => {
    const balance = await readBalance(accountId);
    if (balance === undefined) throw new NotFoundError(NO_BALANCE_MESSAGE);
    return splitExpired(await resolveLots(accountId, balance.credits, balance.lots), now().getTime()).live;
  };

  return {
    /** The spendable balance: expired lots are not counted, even before their `expire` entry is written. */
    async balance(accountId: string): Promise<number> {
      return creditsIn(await liveLots(accountId));
    },

    /** Whether a change was made under `key` already. */
    async used(accountId: string, key: string): Promise<boolean> {
      const out = await doc.send(new GetCommand({ TableName: tableName, Key: accountKeys.guard(accountId, key), ConsistentRead: true, ProjectionExpression: 'pk' }));
      return out.Item !== undefined;
    },

    /** The balance's spendable lots, oldest first (the rule of lotsBehind for a balance stored before lots). */
    lots(accountId: string): Promise<LotCredits[]> {
      return liveLots(accountId);
    },

    /** Writes the `expire` entry of the balance's lots whose time ran out, if any (the daily sweep). */
    expire(accountId: string): Promise<ExpireResult> {
      return expire(accountId);
    },

    /**
     * Adds credits as one lot (`lot`: what each is worth, paid or promotional, whether it earns
     * talent nothing, where it came from and when it expires); an admin's grant (`by`, with its
     * `category`) writes its audit entry in the same transaction.
     */
    async grant(accountId: string, change: { credits: number; key: string; reason: string; lot: CreditLot; by?: Actor; category?: GrantCategory }): Promise<LedgerResult> {
      return withoutGuard(await apply(accountId, 'grant', change));
    },

    /**
     * Takes back up to `credits` credits of the lots of `source` (a refunded or disputed purchase),
     * never below zero (decision 049): first its unspent credits on the balance, oldest first, then
     * its credits running generations hold reserved (claimed: a release drops them, a commit spends
     * them and says so). `takenBack` is both, `reserved` the claimed part; of the rest, `expired`
     * had expired unspent (each expired credit counted by one take-back only) and `shortfall` had
     * been spent. The entry is written even when nothing was left (0), so the history explains
     * the refund. Once per key: a repeat answers the first result.
     */
    async takeBack(accountId: string, change: { key: string; source: string; credits: number; reason: string }): Promise<TakeBackResult> {
      const result = await apply(accountId, 'take-back', change);
      const g = result.guard;
      return {
        entry: result.entry,
        balance: result.balance,
        takenBack: g?.takenBack ?? 0,
        reserved: g?.reservedTakenBack ?? 0,
        expired: g?.expiredTakenBack ?? 0,
        shortfall: g?.shortfall ?? change.credits,
        replayed: result.replayed,
      };
    },

    /** Takes credits from the balance for a generation, oldest lots first; InsufficientCreditsError when the balance is short. */
    async reserve(accountId: string, change: { credits: number; key: string; generationId: string; reason: string }): Promise<LedgerResult> {
      return withoutGuard(await apply(accountId, 'reserve', change));
    },

    /**
     * Makes (part of) a generation's reservation final, its oldest unclaimed credits first, then
     * credits a take-back claimed (`claimed`: spent after their purchase was refunded): the
     * balance does not change.
     */
    async commit(accountId: string, change: { credits: number; key: string; generationId: string; reason: string }): Promise<LedgerResult> {
      return withoutGuard(await apply(accountId, 'commit', change));
    },

    /**
     * Commits one credit of a generation's reservation (its oldest open one) in the same
     * transaction as `linked(credit)`, the writes it pays for (a license and its accrual, which
     * record the credit's value): both happen or neither. A repeat of the key answers the first
     * commit and its credit, writing nothing. LinkedWriteRefusedError when a linked write's own
     * condition refuses it while the key is new.
     */
    async commitOne(
      accountId: string,
      change: { key: string; generationId: string; reason: string },
      linked: (credit: CreditLot) => LinkedWrite[],
    ): Promise<LedgerResult & { credit?: CreditLot }> {
      const result = withoutGuard(await apply(accountId, 'commit', { ...change, credits: 1 }, (moved) => linked(moved[0])));
      return { ...result, ...(result.lots[0] ? { credit: result.lots[0] } : {}) };
    },

    /**
     * Returns (part of) a generation's reservation to the balance, where its credits come first
     * again (they were the oldest); credits a take-back claimed go first and are dropped, not
     * returned (`claimed`; decision 049).
     */
    async release(accountId: string, change: { credits: number; key: string; generationId: string; reason: string }): Promise<LedgerResult> {
      return withoutGuard(await apply(accountId, 'release', change));
    },

    /**
     * What a generation has reserved, committed and released so far (undefined when it reserved
     * nothing), and `takenBack` when take-backs claimed some of its credits (part of `open` until
     * committed or released).
     */
    async reservation(
      accountId: string,
      generationId: string,
    ): Promise<{ reserved: number; committed: number; released: number; open: number; takenBack?: number } | undefined> {
      const held = await readReservation(accountId, generationId);
      return held && { reserved: held.reserved, committed: held.committed, released: held.released, open: held.open, ...(held.takenBack ? { takenBack: held.takenBack } : {}) };
    },

    /** The credits a generation still holds open, by lot, oldest first in the order its next commits consume them (claimed ones last). */
    async reservedLots(accountId: string, generationId: string): Promise<LotCredits[]> {
      const held = await readReservation(accountId, generationId);
      return held ? [...(await unclaimedLots(accountId, held)), ...held.claimed] : [];
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
    ...(typeof item.expiresAt === 'string' ? { expiresAt: item.expiresAt } : {}),
  };
}
