// Connect's money in the Stripe emulator: the platform's balance, transfers from it to connected
// accounts (and their reversals), and the automatic payout that follows to the account's bank
// account, paid or failed as its test number says. A transfer's events are the platform's own;
// a payout's are the connected account's.
import type Stripe from 'stripe';
import { type Accounts, FAILING_BANK_ACCOUNTS } from './accounts';
import { type Api, newest, page } from './api';
import { days } from './clock';
import { executed, invalid, mergeMetadata, missing, type Reader } from './form';
import * as o from './objects';
import type { Store } from './store';
import type { Webhooks } from './webhooks';

/** The platform's available balance when the emulator starts: $1,000,000, as a test account can be topped up to. */
const PLATFORM_BALANCE_CENTS = 100_000_000;
/** A payout's expected arrival: the next business day or two (the emulator says two days). */
const PAYOUT_ARRIVAL_DAYS = 2;

export class Payouts {
  readonly transfers = new Map<string, Stripe.Transfer>();
  readonly payouts = new Map<string, Stripe.Payout>();
  private readonly payoutAccount = new Map<string, string>();
  private readonly connectedBalance = new Map<string, number>();
  private platformBalance = PLATFORM_BALANCE_CENTS;
  private stopped = false;

  constructor(
    private readonly s: Store,
    private readonly accounts: Accounts,
    private readonly webhooks: Webhooks,
  ) {}

  stop(): void {
    this.stopped = true;
  }

  platformBalanceObject(): Stripe.Balance {
    return o.balance(this.platformBalance);
  }

  connectedBalanceObject(accountId: string): Stripe.Balance {
    return o.balance(this.connectedBalance.get(accountId) ?? 0);
  }

  createTransfer(r: Reader): Stripe.Transfer {
    const amount = r.integer('amount', { required: true, min: 1, max: 99_999_999 })!;
    const currency = r.required('currency').toLowerCase();
    const destination = r.required('destination');
    const transferGroup = r.string('transfer_group', { max: 5000 }) || null;
    const description = r.string('description', { max: 5000 }) || null;
    const metadata = r.metadata() ?? {};
    r.done();
    if (currency !== 'usd') throw invalid(`The emulator's platform balance is in usd only, not ${currency}.`, 'currency');
    this.checkTransfer(destination, amount);
    const tr = o.transfer({
      id: o.newId('tr'),
      amount,
      currency,
      destination,
      destinationPayment: o.newId('py'),
      transferGroup,
      description,
      metadata,
      created: this.s.clocks.now(null),
    });
    this.transfers.set(tr.id, tr);
    this.platformBalance -= amount;
    this.connectedBalance.set(destination, (this.connectedBalance.get(destination) ?? 0) + amount);
    this.s.emitConnected('transfer.created', tr, undefined);
    this.s.log(`${tr.id}: ${amount} ${currency} to ${destination}`);
    // The connected account's automatic payout, once this call has answered.
    setImmediate(() => {
      if (!this.stopped) this.payOut(destination);
    });
    return tr;
  }

  /** Stripe's refusals of a transfer that had begun its work: a destination without the transfers capability, or too little balance. */
  private checkTransfer(destination: string, amount: number): void {
    const acct = this.accounts.accounts.get(destination);
    if (!acct) throw invalid(`No such destination: '${destination}'`, 'destination', 'resource_missing');
    if (acct.capabilities?.transfers !== 'active') {
      throw executed(
        invalid(
          'Your destination account needs to have at least one of the following capabilities enabled: transfers, crypto_transfers, legacy_payments',
          'destination',
          'insufficient_capabilities_for_transfer',
        ),
      );
    }
    if (this.webhooks.takeTransferFault(destination) || amount > this.platformBalance) {
      throw executed(
        invalid(
          'You have insufficient available funds in your Stripe account. Try adding funds directly to your available balance by creating Charges using the 4000000000000077 test card. See: https://stripe.com/docs/testing#available-balance',
          undefined,
          'balance_insufficient',
        ),
      );
    }
  }

  transfer(id: string): Stripe.Transfer {
    const tr = this.transfers.get(id);
    if (!tr) throw missing('transfer', id, 'id');
    return tr;
  }

  updateTransfer(id: string, r: Reader): Stripe.Transfer {
    const tr = this.transfer(id);
    const before = structuredClone(tr);
    const description = r.string('description', { max: 5000 });
    if (description !== undefined) tr.description = description || null;
    tr.metadata = mergeMetadata(tr.metadata, r.metadata());
    r.done();
    const previous: Record<string, unknown> = {};
    if (before.description !== tr.description) previous.description = before.description;
    if (JSON.stringify(before.metadata) !== JSON.stringify(tr.metadata)) previous.metadata = before.metadata;
    if (Object.keys(previous).length) this.s.emitConnected('transfer.updated', tr, undefined, previous);
    return tr;
  }

  /** `POST /v1/transfers/:id/reversals`: money back from the connected account (its balance may go below zero). */
  reverseTransfer(id: string, r: Reader): Stripe.TransferReversal {
    const tr = this.transfer(id);
    const left = tr.amount - tr.amount_reversed;
    const amount = r.integer('amount', { min: 1 }) ?? left;
    const metadata = r.metadata() ?? {};
    r.string('description');
    r.boolean('refund_application_fee');
    r.done();
    if (left === 0) throw invalid(`Transfer ${tr.id} has already been fully reversed.`, undefined, 'transfer_already_reversed' as string);
    if (amount > left) throw invalid(`Reversal amount (${amount}) is greater than the transfer's unreversed amount (${left}).`, 'amount');
    const rev = o.transferReversal({ id: o.newId('trr'), amount, currency: tr.currency, transfer: tr.id, metadata, created: this.s.clocks.now(null) });
    const before = structuredClone(tr);
    tr.amount_reversed += amount;
    tr.reversed = tr.amount_reversed === tr.amount;
    tr.reversals = o.list(`/v1/transfers/${tr.id}/reversals`, [rev, ...tr.reversals.data]);
    const destination = tr.destination as string;
    this.platformBalance += amount;
    this.connectedBalance.set(destination, (this.connectedBalance.get(destination) ?? 0) - amount);
    this.s.emitConnected('transfer.reversed', tr, undefined, { amount_reversed: before.amount_reversed, reversals: before.reversals, reversed: before.reversed });
    return rev;
  }

  payoutOf(accountId: string, id: string): Stripe.Payout {
    const po = this.payouts.get(id);
    if (!po || this.payoutAccount.get(id) !== accountId) throw missing('payout', id, 'id');
    return po;
  }

  payoutsOf(accountId: string | null): Stripe.Payout[] {
    return [...this.payouts.values()].filter((p) => this.payoutAccount.get(p.id) === accountId);
  }

  /**
   * The connected account's automatic payout: its whole available balance to its bank account
   * (when payouts are enabled), `pending` at once and then `paid`, or `failed` when the bank
   * account's test number says so, on the next turn (the emulator does not wait for the arrival
   * date).
   */
  payOut(accountId: string): void {
    const acct = this.accounts.accounts.get(accountId);
    const amount = this.connectedBalance.get(accountId) ?? 0;
    const bank = acct?.external_accounts?.data[0] as Stripe.BankAccount | undefined;
    if (!acct || !acct.payouts_enabled || !bank || bank.status === 'errored' || amount <= 0) return;
    const created = this.s.clocks.now(null);
    const po = o.payout({ id: o.newId('po'), amount, currency: 'usd', destination: bank.id, created, arrivalDate: created + days(PAYOUT_ARRIVAL_DAYS) });
    this.payouts.set(po.id, po);
    this.payoutAccount.set(po.id, accountId);
    this.connectedBalance.set(accountId, 0);
    this.s.emitConnected('payout.created', po, accountId);
    setImmediate(() => {
      if (!this.stopped) this.settlePayout(po, accountId, bank);
    });
  }

  private settlePayout(po: Stripe.Payout, accountId: string, bank: Stripe.BankAccount): void {
    const failure = FAILING_BANK_ACCOUNTS[this.accounts.bankNumbers.get(bank.id) ?? ''];
    if (!failure) {
      po.status = 'paid';
      this.s.emitConnected('payout.paid', po, accountId, { status: 'pending' });
      this.s.log(`${po.id}: paid to ${accountId}`);
      return;
    }
    po.status = 'failed';
    po.failure_code = failure.code;
    po.failure_message = failure.message;
    po.failure_balance_transaction = o.newId('txn');
    this.connectedBalance.set(accountId, (this.connectedBalance.get(accountId) ?? 0) + po.amount);
    this.s.emitConnected('payout.failed', po, accountId, { status: 'pending', failure_code: null, failure_message: null, failure_balance_transaction: null });
    this.s.log(`${po.id}: failed for ${accountId} (${failure.code})`);
    // The bank account is disabled until the talent gives another; payouts wait for it.
    const acct = this.accounts.accounts.get(accountId);
    if (!acct) return;
    if (bank.status !== 'errored') {
      bank.status = 'errored';
      this.s.emitConnected('account.external_account.updated', bank, accountId, { status: 'new' });
    }
    const before = structuredClone(acct);
    const due = [...new Set([...(acct.requirements?.currently_due ?? []), 'external_account'])];
    acct.requirements = o.requirements(due);
    acct.payouts_enabled = false;
    this.accounts.emitAccountUpdated(acct, before);
  }

  routes(api: Api): void {
    api.on('GET', '/v1/balance', (_r, _m, ctx) => (ctx.account ? this.connectedBalanceObject(ctx.account) : this.platformBalanceObject()), { connected: true });
    api.on('POST', '/v1/transfers', (r) => this.createTransfer(r));
    api.on('GET', '/v1/transfers', (r) => {
      const group = r.string('transfer_group');
      const destination = r.string('destination');
      return page(
        newest(this.transfers.values()).filter((t) => (!group || t.transfer_group === group) && (!destination || t.destination === destination)),
        r,
        '/v1/transfers',
        'transfer',
      );
    });
    api.on('GET', '/v1/transfers/:id', (_r, [id]) => this.transfer(id));
    api.on('POST', '/v1/transfers/:id', (r, [id]) => this.updateTransfer(id, r));
    api.on('POST', '/v1/transfers/:id/reversals', (r, [id]) => this.reverseTransfer(id, r));
    api.on('GET', '/v1/transfers/:id/reversals', (r, [id]) => page(this.transfer(id).reversals.data, r, `/v1/transfers/${id}/reversals`, 'transfer_reversal'));
    api.on(
      'GET',
      '/v1/payouts',
      (r, _m, ctx) => {
        const status = r.oneOf('status', ['pending', 'paid', 'failed', 'canceled', 'in_transit'] as const);
        const destination = r.string('destination');
        return page(
          newest(this.payoutsOf(ctx.account)).filter((p) => (!status || p.status === status) && (!destination || p.destination === destination)),
          r,
          '/v1/payouts',
          'payout',
        );
      },
      { connected: true },
    );
    api.on('GET', '/v1/payouts/:id', (_r, [id], ctx) => this.payoutOf(ctx.account ?? '', id), { connected: true });
  }
}
