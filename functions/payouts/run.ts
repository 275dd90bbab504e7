// The payout run (docs/payouts.md "The payout run"): after a month's close, one Stripe transfer per
// statement whose amount due reaches the minimum. Due = the statement's royalty + what earlier
// statements under the minimum carried. Every step is safe to repeat: a payout's state moves only
// forward under a condition, the transfer's idempotency key names the statement (and the attempt,
// as Stripe replays a refused request's error under the same key), and before any transfer the
// month's transfers are listed from Stripe, so a statement is never paid twice.
import Stripe from 'stripe';
import { FAILURE_METRICS } from '../../events/metrics';
import { PAYOUT_MESSAGES, transferGroupOf, type PayoutAction } from '../../events/payout-values';
import type { PayoutActionEntry } from '../../events/payouts';
import { NOTHING_DUE_MESSAGE, statementId as statementIdOf } from '../../events/royalty-values';
import type { RoyaltyStore } from '../royalties';
import type { AdminActor } from '../shared/auth';
import type { SendEmail } from '../shared/email';
import { ConflictError, NotFoundError, ValidationError } from '../shared/errors';
import { sendOnce, type Once } from '../shared/idempotency';
import { log } from '../shared/log';
import { connectStatusOf, transferFailureOf } from './connect';
import { dollars, monthLabel, payoutEmailOnce, payoutFailedEmail, setUpPayoutsEmail } from './emails';
import type { ConnectRecord, PayoutRecord, PayoutStore } from './store';

type Statement = NonNullable<Awaited<ReturnType<RoyaltyStore['getStatement']>>>;

export interface PayoutDeps {
  stripe: Stripe;
  store: PayoutStore;
  statements: Pick<RoyaltyStore, 'getStatement' | 'listStatementsOfMonth' | 'setPaid'>;
  /** The talent's name and address for an email, when known (catalog and founding application). */
  contact: (talentId: string) => Promise<{ name: string; email?: string } | undefined>;
  send: SendEmail;
  /** The idempotency utility: each payout email is sent once (decision 050). */
  once: Once;
  siteUrl: string;
  minimumCents: number;
  now: () => Date;
}

/** A statement's payout states that no run changes again (a retry or a manual payout may change `failed`). */
const SETTLED = new Set<PayoutRecord['state']>(['paid', 'manual', 'carried', 'nothing-due']);

/** The idempotency key of a statement's transfer: the statement id, then one per retry. */
export const transferKeyOf = (statementId: string, attempt: number) => (attempt <= 1 ? `payout:${statementId}` : `payout:${statementId}:${attempt}`);

/** The admin's action as a payout records it. */
const actionOf = (action: PayoutAction, by: AdminActor, at: string): PayoutActionEntry => ({ action, at, by: by.email, bySub: by.sub });

/** A statement id `YYYY-MM_<talentId>` split, or undefined when it is not one. */
function parseStatementId(id: string | undefined): { month: string; talentId: string } | undefined {
  const match = /^(\d{4}-(?:0[1-9]|1[0-2]))_(.+)$/.exec(id ?? '');
  return match ? { month: match[1]!, talentId: match[2]! } : undefined;
}

/** The transfer Stripe already made for the statement, if any (not reversed). */
async function findTransfer(stripe: Stripe, month: string, statementId: string): Promise<Stripe.Transfer | undefined> {
  for await (const transfer of stripe.transfers.list({ transfer_group: transferGroupOf(month), limit: 100 })) {
    if (transfer.metadata?.statementId === statementId && !transfer.reversed) return transfer;
  }
  return undefined;
}

/** Earlier payouts of the talent under the minimum that this month's payout takes in. */
async function carriedInto(deps: PayoutDeps, talentId: string, month: string): Promise<PayoutRecord[]> {
  const all = await deps.store.listPayouts(talentId);
  return all.filter((p) => p.state === 'carried' && p.month < month && (p.carriedInto === undefined || p.carriedInto === month));
}

async function emailOnce(deps: PayoutDeps, key: string, talentId: string, build: (name: string) => Parameters<SendEmail>[1], known?: ConnectRecord): Promise<void> {
  const contact = known ? { name: known.talentName, email: known.email } : await deps.contact(talentId);
  if (!contact?.email) {
    log.info('no address known for the talent: the payout email is not sent', { talentId, key });
    return;
  }
  await sendOnce(deps, payoutEmailOnce(key), contact.email, () => build(contact.name));
}

/** The talent's connected account and its state now (read from Stripe and recorded). */
async function accountOf(deps: PayoutDeps, talentId: string): Promise<{ connect?: ConnectRecord; active: boolean }> {
  const connect = await deps.store.getConnect(talentId);
  if (!connect) return { active: false };
  const status = connectStatusOf(await deps.stripe.accounts.retrieve(connect.accountId));
  await deps.store.setConnectStatus(talentId, status, deps.now().toISOString());
  return { connect, active: status.payoutsEnabled };
}

/**
 * Pays one statement, once: answers its payout as stored after. A settled payout (paid, manual,
 * carried, nothing due) is answered as it is; a failed one only changes on `retry`. With `by`
 * (an admin's run or retry), a payout this changes records the admin's action, appended to its
 * `actions`.
 */
export async function payStatement(deps: PayoutDeps, statement: Statement, options: { retry?: boolean; by?: AdminActor } = {}): Promise<PayoutRecord> {
  const { talentId, month } = statement;
  const id = statementIdOf(month, talentId);
  const current = await deps.store.getPayout(talentId, month);
  if (current && SETTLED.has(current.state)) {
    if (options.retry) throw new ConflictError(current.state === 'paid' || current.state === 'manual' ? PAYOUT_MESSAGES.alreadyPaid : PAYOUT_MESSAGES.notRetryable);
    // A run that stopped between the payout and the statement: the statement is marked now.
    if (current.state === 'paid' && current.transferId && !statement.paid) await markStatementPaid(deps, current, options);
    return current;
  }
  if (current?.state === 'failed') {
    if (!options.retry) return current;
    if (current.bankFailure) throw new ConflictError(PAYOUT_MESSAGES.bankFailureRetry);
  }
  if (options.retry && current?.state !== 'failed') throw new ConflictError(PAYOUT_MESSAGES.notRetryable);

  const now = deps.now().toISOString();
  const earlier = await carriedInto(deps, talentId, month);
  const carriedInCents = earlier.reduce((sum, p) => sum + p.amountCents, 0);
  const statementCents = statement.totals.royaltyCents;
  const amountCents = statementCents + carriedInCents;
  const base: PayoutRecord = {
    statementId: id,
    talentId,
    talentName: statement.talentName,
    month,
    statementCents,
    carriedInCents,
    amountCents,
    state: 'nothing-due',
    attempts: current?.attempts ?? 0,
    updatedAt: now,
  };
  const takeIn = () => Promise.all(earlier.map((p) => deps.store.markCarriedInto(talentId, p.month, month)));
  // The admin's action, appended once to the payout's actions by the first write that changes its state.
  const prior = current?.actions ?? [];
  const action = options.by ? actionOf(options.retry ? 'retried' : 'run', options.by, now) : undefined;
  let actions = prior;
  const write = async (record: PayoutRecord, from: Parameters<PayoutStore['putPayout']>[1]): Promise<PayoutRecord> => {
    const next = action && actions === prior && record.state !== current?.state ? [...prior, action] : actions;
    const stored: PayoutRecord = { ...record, ...(next.length ? { actions: next } : {}) };
    if (await deps.store.putPayout(stored, from, { actionsSeen: actions.length })) {
      actions = next;
      return stored;
    }
    // Another run got there first: theirs stands.
    return (await deps.store.getPayout(talentId, month))!;
  };

  if (amountCents <= 0) return write({ ...base, state: 'nothing-due' }, ['absent', 'awaiting-account']);
  if (amountCents < deps.minimumCents) {
    const carried = await write({ ...base, state: 'carried' }, ['absent', 'awaiting-account']);
    if (carried.state === 'carried') await takeIn();
    return carried;
  }

  const { connect, active } = await accountOf(deps, talentId);
  if (!connect || !active) {
    const awaiting = await write({ ...base, state: 'awaiting-account' }, ['absent', 'awaiting-account', 'failed']);
    if (awaiting.state !== 'awaiting-account') return awaiting;
    await takeIn();
    await emailOnce(deps, `setup:${talentId}`, talentId, (name) => setUpPayoutsEmail({ talentName: name, month, amountCents, siteUrl: deps.siteUrl }), connect);
    return awaiting;
  }

  // A payout left `transferring` (a run that stopped half-way) resumes with its attempt's key.
  const attempt = current?.state === 'transferring' ? (current.attempts ?? 1) : (current?.attempts ?? 0) + 1;
  const transferring = await write({ ...base, state: 'transferring', attempts: attempt }, current?.state === 'transferring' ? ['transferring'] : ['absent', 'awaiting-account', 'failed']);
  if (transferring.state !== 'transferring' || transferring.attempts !== attempt) return transferring;
  await takeIn();

  let transfer = await findTransfer(deps.stripe, month, id);
  if (!transfer) {
    try {
      transfer = await deps.stripe.transfers.create(
        { amount: amountCents, currency: 'usd', destination: connect.accountId, transfer_group: transferGroupOf(month), metadata: { statementId: id, talentId } },
        { idempotencyKey: transferKeyOf(id, attempt) },
      );
    } catch (err) {
      if (!(err instanceof Stripe.errors.StripeError) || !err.code || (err.statusCode ?? 500) >= 500) throw err;
      const { failure, talentToFix } = transferFailureOf(err);
      const failed = await write({ ...base, state: 'failed', attempts: attempt, failure, ...(talentToFix ? {} : { oursToFix: true }), updatedAt: deps.now().toISOString() }, ['transferring']);
      log.metric(FAILURE_METRICS.payoutFailed, { fields: { statementId: id, code: err.code, attempt } });
      await deps.store.addHistory(talentId, { at: failed.updatedAt, what: `Transfer of ${dollars(amountCents)} for ${monthLabel(month)} failed: ${failure}` }, `fail-${id}-${attempt}`);
      if (talentToFix) {
        await emailOnce(deps, `failed:${id}:${attempt}`, talentId, (name) => payoutFailedEmail({ talentName: name, month, amountCents, failure, siteUrl: deps.siteUrl }), connect);
      }
      return failed;
    }
  }
  const paidAt = new Date(transfer.created * 1000).toISOString();
  const paid = await write({ ...base, state: 'paid', attempts: attempt, transferId: transfer.id, amountCents: transfer.amount, paidAt, updatedAt: deps.now().toISOString() }, ['transferring']);
  if (paid.state === 'paid') await markStatementPaid(deps, paid, options);
  return paid;
}

/**
 * The statement marked paid by Stripe with the transfer as its reference, and the history line.
 * When an admin's retry or run made the transfer, the statement's audit names that admin.
 */
async function markStatementPaid(deps: PayoutDeps, paid: PayoutRecord, options: { retry?: boolean; by?: AdminActor } = {}): Promise<void> {
  const { talentId, month, transferId, amountCents } = paid;
  const paidAt = paid.paidAt ?? paid.updatedAt;
  const transfer = `Stripe transfer ${transferId} of ${dollars(amountCents)}`;
  const audit = options.by
    ? { at: paid.updatedAt, by: options.by.email, bySub: options.by.sub, action: 'marked-paid' as const, detail: `${transfer}, ${options.retry ? 'retried' : 'by a payout run'} from the console` }
    : { at: paid.updatedAt, by: 'Stripe', action: 'marked-paid' as const, detail: transfer };
  await deps.statements.setPaid(talentId, month, { paidAt, reference: transferId!, by: 'Stripe' }, audit);
  await deps.store.addHistory(talentId, { at: paidAt, what: `Paid ${dollars(amountCents)} for ${monthLabel(month)} (transfer ${transferId})` }, `paid-${paid.statementId}`);
}

/**
 * Pays every statement of the month. One statement's unexpected failure (Stripe unreachable) does
 * not stop the others; the run then throws, so its trigger is retried and a rerun finishes.
 */
export async function runMonth(deps: PayoutDeps, month: string, by?: AdminActor): Promise<{ month: string; payouts: PayoutRecord[]; errors: number }> {
  const statements = await deps.statements.listStatementsOfMonth(month);
  const payouts: PayoutRecord[] = [];
  let errors = 0;
  // Talent in a stable order: a rerun meets them as the first run did.
  for (const statement of [...statements].sort((a, b) => a.talentId.localeCompare(b.talentId))) {
    try {
      payouts.push(await payStatement(deps, statement, by ? { by } : {}));
    } catch (err) {
      errors += 1;
      log.error('payout not made', err, { statementId: statementIdOf(month, statement.talentId) });
    }
  }
  await deps.store.setRan(month, deps.now().toISOString(), by);
  log.info('payout run', { month, statements: statements.length, errors });
  return { month, payouts, errors };
}

/** The statement behind a statement id, or 404 naming it. */
async function statementOf(deps: Pick<PayoutDeps, 'statements'>, statementId: string | undefined): Promise<Statement> {
  const parsed = parseStatementId(statementId);
  const statement = parsed && (await deps.statements.getStatement(parsed.talentId, parsed.month));
  if (!statement) throw new NotFoundError(PAYOUT_MESSAGES.statementNotFound);
  return statement;
}

/** Pays the talent's payouts that waited for an active account (their account just became active). */
export async function payAwaiting(deps: PayoutDeps, talentId: string): Promise<PayoutRecord[]> {
  const waiting = (await deps.store.listPayouts(talentId)).filter((p) => p.state === 'awaiting-account');
  const out: PayoutRecord[] = [];
  for (const p of waiting) {
    const statement = await deps.statements.getStatement(talentId, p.month);
    if (statement) out.push(await payStatement(deps, statement));
  }
  return out;
}

/** `POST /admin/payouts/{statementId}/retry`: a failed transfer again, with the next attempt's key. */
export async function retryPayout(deps: PayoutDeps, statementId: string | undefined, by: AdminActor): Promise<PayoutRecord> {
  const statement = await statementOf(deps, statementId);
  const current = await deps.store.getPayout(statement.talentId, statement.month);
  if (!current) throw new NotFoundError(PAYOUT_MESSAGES.notFound);
  return payStatement(deps, statement, { retry: true, by });
}

/** `POST /admin/payouts/{statementId}/manual`: paid outside Stripe, with the admin's reference and reason. */
export async function manualPayout(
  deps: PayoutDeps,
  statementId: string | undefined,
  request: { reference: string; reason: string; paidAt?: string },
  admin: AdminActor,
): Promise<PayoutRecord> {
  const statement = await statementOf(deps, statementId);
  const { talentId, month } = statement;
  const current = await deps.store.getPayout(talentId, month);
  if (current?.state === 'paid' || current?.state === 'manual') throw new ConflictError(PAYOUT_MESSAGES.alreadyPaid);
  if (current?.state === 'transferring') throw new ConflictError('A transfer of this statement is being made: wait for it to finish before recording a manual payout.');
  if (current?.bankFailure) throw new ConflictError(PAYOUT_MESSAGES.bankFailureRetry);
  if (current?.carriedInto) throw new ConflictError(`This amount was carried into the payout of ${current.carriedInto}: record that one instead.`);
  const earlier = current?.state === 'carried' ? [] : await carriedInto(deps, talentId, month);
  const carriedInCents = current?.state === 'carried' ? current.carriedInCents : earlier.reduce((sum, p) => sum + p.amountCents, 0);
  const amountCents = statement.totals.royaltyCents + carriedInCents;
  if (amountCents === 0) throw new ConflictError(NOTHING_DUE_MESSAGE);
  const now = deps.now().toISOString();
  const paidAt = request.paidAt ? new Date(request.paidAt).toISOString() : now;
  if (paidAt > now) throw new ValidationError('paidAt must not be in the future', { paidAt: 'paidAt must not be in the future' });
  if (paidAt < statement.closedAt.slice(0, 10)) throw new ValidationError('paidAt must not be before the statement was closed', { paidAt: 'paidAt must not be before the statement was closed' });
  const record: PayoutRecord = {
    statementId: statementIdOf(month, talentId),
    talentId,
    talentName: statement.talentName,
    month,
    statementCents: statement.totals.royaltyCents,
    carriedInCents,
    amountCents,
    state: 'manual',
    paidAt,
    reference: request.reference,
    reason: request.reason,
    attempts: current?.attempts ?? 0,
    actions: [...(current?.actions ?? []), actionOf('marked-paid', admin, now)],
    updatedAt: now,
  };
  if (!(await deps.store.putPayout(record, current ? [current.state] : ['absent'], { actionsSeen: current?.actions?.length ?? 0 }))) throw new ConflictError('This payout changed meanwhile: load it again.');
  await Promise.all(earlier.map((p) => deps.store.markCarriedInto(talentId, p.month, month)));
  await deps.statements.setPaid(talentId, month, { paidAt, reference: request.reference, by: admin.email }, { at: now, by: admin.email, bySub: admin.sub, action: 'marked-paid', detail: `Paid outside Stripe (${request.reference}): ${request.reason}` });
  await deps.store.addHistory(talentId, { at: now, what: `Marked paid outside Stripe by ${admin.email}: ${dollars(record.amountCents)} for ${monthLabel(month)} (${request.reference}): ${request.reason}` }, `manual-${record.statementId}`);
  return record;
}
