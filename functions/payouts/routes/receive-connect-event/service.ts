// `POST /webhooks/stripe-connect` (signed): events of the talent's connected accounts, verified with
// the `stripe` package on the raw body and the Connect endpoint's signing secret, each applied
// once by its id, reading the current state from Stripe (docs/payouts.md "Connect events").
import Stripe from 'stripe';
import { FAILURE_METRICS } from '../../../../events/metrics';
import { statementId as statementIdOf } from '../../../../events/royalty-values';
import type { ConnectNameCheck } from '../../../../events/payouts';
import { nameFinding } from '../../../founding';
import type { RoyaltyStore } from '../../../royalties';
import type { SendEmail } from '../../../shared/email';
import type { HttpEvent, HttpResult } from '../../../shared/http';
import { sendOnce, type Once } from '../../../shared/idempotency';
import { log } from '../../../shared/log';
import { receiveStripeDelivery } from '../../../shared/stripe-events';
import { bankFailureWords, connectStatusOf } from '../../connect';
import { bankAccountChangedEmail, dollars, monthLabel, payoutEmailOnce, payoutFailedEmail } from '../../emails';
import type { PayoutStore } from '../../store';

export interface ConnectEventDeps {
  stripe: Stripe;
  /** Pays the talent's payouts that waited for their account, once it is active. */
  payAwaiting: (talentId: string) => Promise<void>;
  secret: () => Promise<string>;
  store: PayoutStore;
  statements: Pick<RoyaltyStore, 'setPaid'>;
  send: SendEmail;
  /** The idempotency utility: each delivery is applied once, each email sent once (decision 050). */
  once: Once;
  siteUrl: string;
  now: () => Date;
  /** The name on the talent's verified ID, when they have one (wiring.ts `verifiedNameOf`). */
  verifiedName: (talentId: string) => Promise<string | undefined>;
}

/**
 * Compares the account's legal name (its individual, as Stripe shows it to the platform) with the
 * name on the talent's verified ID, by the identity check's name rule. A change of outcome is
 * kept on the account record; a mismatch warns the console (the talent's payout history, and a
 * warning above it) for a person to look at before paying. Names stay out of the log.
 */
async function checkAccountName(deps: ConnectEventDeps, talentId: string, account: Stripe.Account, at: string, eventId: string): Promise<void> {
  const person = account.individual;
  const accountName = [person?.first_name, person?.last_name].filter(Boolean).join(' ').trim();
  if (!accountName) return;
  const verifiedName = await deps.verifiedName(talentId);
  if (!verifiedName) return;
  const finding = nameFinding({ firstName: verifiedName }, { firstName: person?.first_name ?? null, lastName: person?.last_name ?? null });
  const before = (await deps.store.getConnect(talentId))?.nameCheck;
  if (before && before.result === finding.result && before.accountName === finding.verified && before.verifiedName === finding.applied) return;
  const check: ConnectNameCheck = { result: finding.result, accountName: finding.verified, verifiedName: finding.applied, note: finding.note, checkedAt: deps.now().toISOString() };
  // The history line first (once per event), then the check: whoever sees the check sees its line,
  // and a run stopped between the two writes the line again when the event is delivered again.
  if (check.result === 'mismatch') {
    log.warn('the payout account name differs from the verified ID', { talentId, note: check.note });
    const what = `Warning: the name on the payout account (${check.accountName}) differs from the verified ID (${check.verifiedName}): ${check.note}. Check before paying.`;
    await deps.store.addHistory(talentId, { at, what }, `${eventId}:name`);
  } else if (before?.result === 'mismatch') {
    await deps.store.addHistory(talentId, { at, what: 'The name on the payout account now matches the verified ID.' }, `${eventId}:name`);
  }
  await deps.store.recordNameCheck(talentId, check);
}

async function emailTalent(deps: ConnectEventDeps, talentId: string, key: string, build: (name: string) => Parameters<SendEmail>[1]): Promise<void> {
  const connect = await deps.store.getConnect(talentId);
  if (!connect?.email) return;
  await sendOnce(deps, payoutEmailOnce(key), connect.email, () => build(connect.talentName));
}

const bankWords = (type: string, bank: { last4?: string | null; bank_name?: string | null }) => {
  const which = `the bank account ending ${bank.last4 ?? '????'}${bank.bank_name ? ` (${bank.bank_name})` : ''}`;
  if (type.endsWith('.created')) return `Stripe added ${which} for your payouts.`;
  if (type.endsWith('.deleted')) return `Stripe removed ${which} from your payouts.`;
  return `Stripe updated ${which} for your payouts.`;
};

/** Applies one verified Connect event; events of accounts that are not ours are acknowledged and ignored. */
async function applyConnectEvent(deps: ConnectEventDeps, event: Stripe.Event): Promise<'applied' | 'ignored'> {
  const accountId = event.account ?? (event.type === 'account.updated' ? (event.data.object as Stripe.Account).id : undefined);
  const talentId = accountId ? await deps.store.talentOfAccount(accountId) : undefined;
  if (!accountId || !talentId) return 'ignored';
  const at = new Date(event.created * 1000).toISOString();
  switch (event.type) {
    case 'account.updated': {
      const before = (await deps.store.getConnect(talentId))?.status;
      const account = await deps.stripe.accounts.retrieve(accountId);
      const status = connectStatusOf(account);
      await deps.store.setConnectStatus(talentId, status, deps.now().toISOString());
      if (before?.state !== status.state) {
        const what =
          status.state === 'active'
            ? 'Payouts active: Stripe enabled transfers and bank payouts'
            : status.state === 'restricted'
              ? `Stripe restricted the payout account (${status.disabledReason ?? 'no reason given'})`
              : `Stripe still needs: ${status.requirementsDue.join(', ') || 'nothing listed'}`;
        await deps.store.addHistory(talentId, { at, what }, event.id);
      }
      await checkAccountName(deps, talentId, account, at, event.id);
      if (status.payoutsEnabled) await deps.payAwaiting(talentId);
      return 'applied';
    }
    case 'account.external_account.created':
    case 'account.external_account.updated':
    case 'account.external_account.deleted': {
      const bank = event.data.object as { last4?: string | null; bank_name?: string | null };
      const change = bankWords(event.type, bank);
      await deps.store.addHistory(talentId, { at, what: `Bank account change: ${change}` }, event.id);
      await emailTalent(deps, talentId, `bank:${event.id}`, (name) => bankAccountChangedEmail({ talentName: name, change, siteUrl: deps.siteUrl }));
      // The account's bank last four digits as shown in the portal.
      await deps.store.setConnectStatus(talentId, connectStatusOf(await deps.stripe.accounts.retrieve(accountId)), deps.now().toISOString());
      return 'applied';
    }
    case 'payout.paid': {
      const payout = await deps.stripe.payouts.retrieve((event.data.object as Stripe.Payout).id, {}, { stripeAccount: accountId });
      await deps.store.addHistory(talentId, { at, what: `Bank payout ${payout.id} of ${dollars(payout.amount)} paid` }, event.id);
      // A statement whose bank payout failed before is paid once Stripe pays out again.
      for (const p of await deps.store.listPayouts(talentId)) {
        if (p.state === 'failed' && p.bankFailure) await deps.store.putPayout({ ...p, state: 'paid', failure: undefined, bankFailure: undefined, updatedAt: deps.now().toISOString() }, ['failed']);
      }
      return 'applied';
    }
    case 'payout.failed': {
      const payout = await deps.stripe.payouts.retrieve((event.data.object as Stripe.Payout).id, {}, { stripeAccount: accountId });
      if (payout.status !== 'failed') return 'ignored';
      const failure = bankFailureWords(payout.failure_code);
      // Automatic payouts carry the latest transfers: the latest paid statement shows the failure.
      // A transfer still being recorded answers 500, so Stripe sends the event again after it.
      const payouts = await deps.store.listPayouts(talentId);
      if (payouts.some((p) => p.state === 'transferring')) throw new Error(`payout.failed ${payout.id} arrived while a transfer of the talent is being recorded`);
      const paid = payouts.filter((p) => p.state === 'paid').sort((a, b) => (b.paidAt ?? '').localeCompare(a.paidAt ?? ''))[0];
      if (paid) await deps.store.putPayout({ ...paid, state: 'failed', failure, bankFailure: true, updatedAt: deps.now().toISOString() }, ['paid']);
      log.metric(FAILURE_METRICS.payoutFailed, { fields: { talentId, payout: payout.id, code: payout.failure_code ?? 'none' } });
      await deps.store.addHistory(talentId, { at, what: `Bank payout ${payout.id} of ${dollars(payout.amount)} failed: ${failure}` }, event.id);
      const month = paid?.month;
      await emailTalent(deps, talentId, `bank-failed:${payout.id}`, (name) =>
        payoutFailedEmail({ talentName: name, month: month ?? new Date(payout.created * 1000).toISOString().slice(0, 7), amountCents: payout.amount, failure, siteUrl: deps.siteUrl }),
      );
      return 'applied';
    }
    case 'transfer.reversed': {
      const transfer = await deps.stripe.transfers.retrieve((event.data.object as Stripe.Transfer).id);
      const statementId = transfer.metadata?.statementId;
      const payouts = await deps.store.listPayouts(talentId);
      const payout = payouts.find((p) => p.transferId === transfer.id);
      if (!payout || payout.state !== 'paid') return 'applied';
      const failure = `The transfer ${transfer.id} was reversed by the platform: the payout is due again.`;
      await deps.store.putPayout({ ...payout, state: 'failed', failure, updatedAt: deps.now().toISOString() }, ['paid']);
      await deps.statements.setPaid(payout.talentId, payout.month, undefined, { at: deps.now().toISOString(), by: 'Stripe', action: 'marked-unpaid', detail: failure });
      log.metric(FAILURE_METRICS.payoutFailed, { fields: { statementId: statementId ?? statementIdOf(payout.month, talentId), transfer: transfer.id } });
      await deps.store.addHistory(talentId, { at, what: `Transfer ${transfer.id} for ${monthLabel(payout.month)} reversed` }, event.id);
      return 'applied';
    }
    default:
      return 'ignored';
  }
}

/** Verifies and applies one delivery (functions/shared/stripe-events.ts). */
export const receiveConnectEvent = (deps: ConnectEventDeps, request: HttpEvent): Promise<HttpResult> =>
  receiveStripeDelivery({ ...deps, name: 'stripe-connect-event', label: 'stripe connect event', apply: (event) => applyConnectEvent(deps, event) }, request);
