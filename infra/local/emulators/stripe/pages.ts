// The Stripe emulator's hosted pages: Checkout, the billing portal, receipts and invoices, and
// Connect's onboarding of a connected account.
// Plain HTML and CSS, no script: every field has its label, errors are announced (role=alert)
// and tied to their field, and the layout goes from one column on a phone to two on a laptop.
// A banner says the page is the local emulator in test mode, with the test cards.
import type Stripe from 'stripe';
import { spacedNumber, TEST_CARDS } from './cards';
import { ONBOARDING_TEST_VALUES, type OnboardingField, type OnboardingView } from './accounts';
import { formatAmount, formatDate } from './format';

export const esc = (s: string | number | null | undefined) =>
  String(s ?? '').replace(/[<>&'"]/g, (c) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', "'": '&#39;', '"': '&quot;' })[c]!);

const STYLE = `
*,*::before,*::after{box-sizing:border-box}
body{margin:0;font:16px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:#1a1f36;background:#f6f8fa}
a{color:#4f46e5}
.test{background:#ffde92;color:#5c3b00;font-size:14px;text-align:center;padding:6px 12px}
.test details{display:inline}
.test summary{cursor:pointer;display:inline;text-decoration:underline}
.test ul{list-style:none;margin:6px 0 0;padding:0}
main{max-width:960px;margin:0 auto;padding:24px 16px 48px;display:grid;gap:24px}
@media (min-width:800px){main.split{grid-template-columns:1fr 1fr;gap:64px;padding-top:64px}}
.brand{font-weight:600;display:flex;align-items:center;gap:8px;margin:0 0 16px}
.brand a{color:inherit;text-decoration:none}
.amount{font-size:36px;font-weight:700;margin:4px 0}
.muted{color:#4f5b6b}
.card{background:#fff;border-radius:8px;box-shadow:0 1px 3px rgba(0,0,0,.12);padding:24px}
h1{font-size:20px;margin:0 0 8px}
h2{font-size:18px;margin:0 0 12px}
table{width:100%;border-collapse:collapse}
td,th{text-align:left;padding:8px 12px 8px 0;border-bottom:1px solid #e3e8ee;vertical-align:top}
td.num,th.num{text-align:right}
td:last-child,th:last-child{padding-right:0}
label{display:block;font-size:14px;font-weight:500;margin:16px 0 4px}
input,select{width:100%;font:inherit;padding:10px 12px;border:1px solid #c9ced6;border-radius:6px;background:#fff;color:inherit}
input:focus,select:focus,button:focus,a:focus{outline:3px solid #a5b4fc;outline-offset:1px}
input[aria-invalid=true]{border-color:#df1b41}
input[readonly]{background:#eef1f5}
.row{display:grid;grid-template-columns:1fr 1fr;gap:12px}
.error{color:#df1b41;font-size:14px;margin:4px 0 0}
.alert{background:#fde8ec;color:#9b1134;border-radius:6px;padding:12px;margin:16px 0 0}
.ok{background:#e3f7ea;color:#0d6a36;border-radius:6px;padding:12px;margin:0 0 16px}
button{width:100%;font:inherit;font-weight:600;margin-top:24px;padding:12px;border:0;border-radius:6px;background:#4f46e5;color:#fff;cursor:pointer}
button.secondary{background:#fff;color:#1a1f36;border:1px solid #c9ced6;width:auto;margin-top:12px;padding:8px 16px}
.actions{display:flex;flex-wrap:wrap;gap:8px;align-items:center}
footer{text-align:center;font-size:13px;color:#4f5b6b;padding:0 16px 24px}
`;

const CARDS_NOTE = `<details><summary>Test cards</summary><ul>${TEST_CARDS.map((c) => `<li><code>${spacedNumber(c.number)}</code> ${esc(c.description)}</li>`).join('')}</ul><p>Any future expiry date, any 3-digit CVC.</p></details>`;

/** A hosted page: the test-mode banner (`what` it is, then `note`), the body, the footer. */
export function layout(title: string, body: string, split = false, note = CARDS_NOTE, what = 'local Stripe emulator, no real money moves'): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>${esc(title)}</title><style>${STYLE}</style></head>
<body><div class="test" role="note"><strong>Test mode</strong> · ${what} ·
${note}</div>
<main class="${split ? 'split' : ''}">${body}</main>
<footer>Powered by the Humanly twin's Stripe emulator</footer></body></html>`;
}

export interface CardFormError {
  field: 'number' | 'expiry' | 'cvc' | 'email' | 'name' | 'session';
  message: string;
}

function field(
  name: string,
  label: string,
  error: CardFormError | undefined,
  attrs: string,
  value = '',
): string {
  const invalid = error?.field === name;
  return `<label for="${name}">${esc(label)}</label>
<input id="${name}" name="${name}" value="${esc(value)}" ${attrs}${invalid ? ` aria-invalid="true" aria-describedby="${name}-error"` : ''}>
${invalid ? `<p class="error" id="${name}-error" role="alert">${esc(error!.message)}</p>` : ''}`;
}

function cardFields(error: CardFormError | undefined, values: Record<string, string>): string {
  return `${field('number', 'Card number', error, 'inputmode="numeric" autocomplete="cc-number" placeholder="1234 1234 1234 1234" required', values.number)}
<div class="row"><div>${field('expiry', 'Expiry (MM / YY)', error, 'inputmode="numeric" autocomplete="cc-exp" placeholder="MM / YY" required', values.expiry)}</div>
<div>${field('cvc', 'CVC', error, 'inputmode="numeric" autocomplete="cc-csc" placeholder="123" required', values.cvc)}</div></div>
${field('name', 'Name on card', error, 'autocomplete="cc-name" required', values.name)}`;
}

/** The hosted checkout page of an open session. */
export function checkoutPage(p: {
  session: Stripe.Checkout.Session;
  lines: Stripe.LineItem[];
  lockedEmail: string | null;
  error?: CardFormError;
  values?: Record<string, string>;
}): string {
  const s = p.session;
  const values = p.values ?? {};
  const currency = s.currency ?? 'usd';
  const recurring = p.lines.find((l) => l.price?.recurring);
  const interval = recurring?.price?.recurring?.interval;
  const rows = p.lines
    .map(
      (l) =>
        `<tr><td>${esc(l.description)}${(l.quantity ?? 1) > 1 ? `<br><span class="muted">Qty ${l.quantity} · ${formatAmount(l.price?.unit_amount ?? 0, currency)} each</span>` : ''}${
          l.price?.recurring ? `<br><span class="muted">Billed ${l.price.recurring.interval}ly</span>` : ''
        }</td><td class="num">${formatAmount(l.amount_total, currency)}</td></tr>`,
    )
    .join('');
  const total = formatAmount(s.amount_total ?? 0, currency);
  const title = s.mode === 'subscription' ? `Subscribe to ${recurring?.description ?? 'Humanly'}` : 'Pay Humanly';
  const alert = p.error?.field === 'session' ? `<div class="alert" role="alert">${esc(p.error.message)}</div>` : '';
  const summary = `<section aria-labelledby="summary-title">
<p class="brand">${s.cancel_url ? `<a href="${esc(s.cancel_url)}" aria-label="Back to Humanly">←</a>` : ''} Humanly <span class="muted">TEST MODE</span></p>
<h1 id="summary-title">${esc(title)}</h1>
<p class="amount">${total}${interval ? ` <span class="muted" style="font-size:16px;font-weight:400">per ${esc(interval)}</span>` : ''}</p>
<table><caption class="muted" style="text-align:left">Order summary</caption><tbody>${rows}</tbody>
<tfoot><tr><th scope="row">Total due today</th><td class="num"><strong>${total}</strong></td></tr></tfoot></table>
${s.cancel_url ? `<p><a href="${esc(s.cancel_url)}">Cancel and return to Humanly</a></p>` : ''}
</section>`;
  const form = `<section class="card" aria-labelledby="pay-title">
<h2 id="pay-title">Pay with card</h2>${alert}
<form method="post" action="/c/pay/${esc(s.id)}" novalidate>
${p.lockedEmail ? `<label for="email">Email</label><input id="email" name="email" value="${esc(p.lockedEmail)}" readonly>` : field('email', 'Email', p.error, 'type="email" autocomplete="email" required', values.email)}
${cardFields(p.error, values)}
<button type="submit">${s.mode === 'subscription' ? 'Subscribe' : `Pay ${total}`}</button>
</form></section>`;
  return layout(title, summary + form, true);
}

/** A session that can no longer be paid, or was paid without a success URL. */
export function messagePage(title: string, message: string, link?: { href: string; text: string }): string {
  return layout(title, `<section class="card"><h1>${esc(title)}</h1><p>${esc(message)}</p>${link ? `<p><a href="${esc(link.href)}">${esc(link.text)}</a></p>` : ''}</section>`);
}

/** The billing portal of one customer. */
export function portalPage(p: {
  sessionId: string;
  returnUrl: string | null;
  customer: Stripe.Customer;
  subscription?: Stripe.Subscription;
  card?: Stripe.PaymentMethod;
  invoices: Stripe.Invoice[];
  plans: Array<{ price: Stripe.Price; name: string }>;
  scheduledPlan?: string;
  notice?: string;
  error?: CardFormError;
  values?: Record<string, string>;
}): string {
  const base = `/p/session/${esc(p.sessionId)}`;
  const sub = p.subscription;
  const item = sub?.items.data[0];
  const planName = item ? (p.plans.find((x) => x.price.id === item.price.id)?.name ?? item.price.nickname ?? item.price.id) : undefined;
  const status =
    sub?.status === 'past_due'
      ? '<p class="alert" role="status">Your last payment failed. Update your card below to pay what is due.</p>'
      : sub?.cancel_at_period_end
        ? `<p class="muted">Your plan ends on ${formatDate(item!.current_period_end)}.</p>`
        : item
          ? `<p class="muted">Renews on ${formatDate(item.current_period_end)}.</p>`
          : '';
  const switchForm =
    sub && p.plans.length > 1
      ? `<form method="post" action="${base}/switch"><label for="price">Change plan</label>
<select id="price" name="price">${p.plans
          .map((x) => `<option value="${esc(x.price.id)}"${x.price.id === item!.price.id ? ' selected' : ''}>${esc(x.name)} · ${formatAmount(x.price.unit_amount ?? 0, x.price.currency)} per ${esc(x.price.recurring?.interval ?? 'month')}</option>`)
          .join('')}</select>
<button type="submit" class="secondary">Update plan</button>
<p class="muted">An upgrade starts now and you pay the difference for the rest of this period; a downgrade starts at the next renewal.</p></form>`
      : '';
  const plan = sub
    ? `<section class="card" aria-labelledby="plan-title"><h2 id="plan-title">Current plan</h2>
<p><strong>${esc(planName)}</strong> · ${formatAmount(item!.price.unit_amount ?? 0, item!.price.currency)} per ${esc(item!.price.recurring?.interval ?? 'month')}</p>
${status}${p.scheduledPlan ? `<p class="muted">Changes to ${esc(p.scheduledPlan)} on ${formatDate(item!.current_period_end)}.</p>` : ''}
<div class="actions">${
        sub.cancel_at_period_end
          ? `<form method="post" action="${base}/renew"><button type="submit" class="secondary">Don't cancel</button></form>`
          : `<form method="post" action="${base}/cancel"><button type="submit" class="secondary">Cancel plan</button></form>`
      }</div>${switchForm}</section>`
    : '<section class="card"><h2>Current plan</h2><p>You have no active plan.</p></section>';
  const card = p.card?.card;
  const payment = `<section class="card" aria-labelledby="pm-title"><h2 id="pm-title">Payment method</h2>
${card ? `<p>${esc(card.brand.toUpperCase())} ending in ${esc(card.last4)} · expires ${String(card.exp_month).padStart(2, '0')}/${card.exp_year}</p>` : '<p>No card on file.</p>'}
<details${p.error ? ' open' : ''}><summary>Update card</summary>
<form method="post" action="${base}/payment-method" novalidate>${cardFields(p.error, p.values ?? {})}
<button type="submit">Save card</button></form></details></section>`;
  const invoices = `<section class="card" aria-labelledby="inv-title"><h2 id="inv-title">Invoice history</h2>
${
  p.invoices.length
    ? `<table><thead><tr><th scope="col">Date</th><th scope="col" class="num">Amount</th><th scope="col">Status</th><th scope="col"><span class="muted">Invoice</span></th></tr></thead><tbody>${p.invoices
        .map(
          (i) =>
            `<tr><td>${formatDate(i.created)}</td><td class="num">${formatAmount(i.total, i.currency)}</td><td>${esc(i.status === 'paid' ? 'Paid' : i.status === 'open' ? 'Due' : i.status)}</td><td><a href="/invoices/${esc(i.id)}">View ${esc(i.number)}</a></td></tr>`,
        )
        .join('')}</tbody></table>`
    : '<p class="muted">No invoices yet.</p>'
}</section>`;
  const header = `<section><p class="brand">Humanly <span class="muted">TEST MODE</span></p><h1>Billing</h1>
<p class="muted">${esc(p.customer.email)}</p>${p.returnUrl ? `<p><a href="${esc(p.returnUrl)}">← Return to Humanly</a></p>` : ''}
${p.notice ? `<p class="ok" role="status">${esc(p.notice)}</p>` : ''}</section>`;
  return layout('Humanly billing', header + plan + payment + invoices);
}

/** An invoice (its hosted URL) or a charge's receipt. */
export function documentPage(p: { title: string; number: string | null; date: number; email: string | null; rows: Array<{ text: string; amount: number }>; total: number; currency: string; status: string; card?: string }): string {
  const rows = p.rows.map((r) => `<tr><td>${esc(r.text)}</td><td class="num">${formatAmount(r.amount, p.currency)}</td></tr>`).join('');
  return layout(
    p.title,
    `<section class="card"><p class="brand">Humanly</p><h1>${esc(p.title)}${p.number ? ` ${esc(p.number)}` : ''}</h1>
<p class="muted">${formatDate(p.date)}${p.email ? ` · ${esc(p.email)}` : ''} · ${esc(p.status)}${p.card ? ` · ${esc(p.card)}` : ''}</p>
<table><tbody>${rows}</tbody><tfoot><tr><th scope="row">Total</th><td class="num"><strong>${formatAmount(p.total, p.currency)}</strong></td></tr></tfoot></table></section>`,
  );
}

const ONBOARDING_NOTE = `<details><summary>Test values</summary><ul>
<li>Last 4 of SSN <code>${ONBOARDING_TEST_VALUES.ssnLast4}</code> · routing number <code>${ONBOARDING_TEST_VALUES.routingNumber}</code></li>
<li>Account <code>${ONBOARDING_TEST_VALUES.accountNumber}</code>: payouts succeed</li>
<li>Account <code>000111111116</code>: payouts fail (no_account)</li>
<li>Account <code>000111111113</code>: payouts fail (account_closed)</li></ul></details>`;

/** Connect's hosted onboarding of a connected account (an account link's page): identity, bank account, agreement. */
export function onboardingPage(p: { action: string; view: OnboardingView; errors?: Partial<Record<OnboardingField, string>>; values?: Record<string, string> }): string {
  const errors = p.errors ?? {};
  const identity = p.view.identity;
  const values: Record<string, string> = {
    first_name: identity.firstName ?? '',
    last_name: identity.lastName ?? '',
    dob: identity.dob ?? '',
    ...p.values,
  };
  const input = (name: OnboardingField, label: string, attrs: string, hint?: string) => {
    const error = errors[name];
    const described = [hint ? `${name}-hint` : '', error ? `${name}-error` : ''].filter(Boolean).join(' ');
    return `<label for="${name}">${esc(label)}</label>${hint ? `<p class="muted" id="${name}-hint" style="margin:0 0 4px;font-size:14px">${esc(hint)}</p>` : ''}
<input id="${name}" name="${name}" value="${esc(values[name] ?? '')}" ${attrs}${error ? ' aria-invalid="true"' : ''}${described ? ` aria-describedby="${described}"` : ''}>
${error ? `<p class="error" id="${name}-error" role="alert">${esc(error)}</p>` : ''}`;
  };
  const count = Object.keys(errors).length;
  const alert = count ? `<div class="alert" role="alert">${count === 1 ? 'One field needs' : `${count} fields need`} your attention.</div>` : '';
  const acct = p.view.account;
  const body = `<section><p class="brand">Humanly <span class="muted">TEST MODE</span></p>
<h1>Get paid by Humanly</h1>
<p class="muted">Humanly partners with Stripe to pay your royalties to your bank account.${acct.email ? ` Account for ${esc(acct.email)}.` : ''}</p>
${acct.details_submitted ? `<p class="ok" role="status">Your details are on file${p.view.bankLast4 ? ` (bank account ending in ${esc(p.view.bankLast4)})` : ''}. Enter them again to change them.</p>` : ''}</section>
<section class="card" aria-labelledby="onboarding-title"><h2 id="onboarding-title">Your details</h2>${alert}
<form method="post" action="${esc(p.action)}" novalidate>
<fieldset style="border:0;padding:0;margin:0"><legend class="muted">Legal name</legend>
<div class="row"><div>${input('first_name', 'First name', 'autocomplete="given-name" required')}</div>
<div>${input('last_name', 'Last name', 'autocomplete="family-name" required')}</div></div></fieldset>
${input('dob', 'Date of birth', 'type="date" autocomplete="bday" required', 'YYYY-MM-DD')}
${input('ssn_last_4', 'Last 4 digits of your Social Security number', 'inputmode="numeric" maxlength="4" required', 'Stripe collects this to verify your identity and for tax reporting.')}
<h2 style="margin-top:24px">Bank account for payouts</h2>
${input('routing_number', 'Routing number', 'inputmode="numeric" maxlength="9" required')}
${input('account_number', 'Account number', 'inputmode="numeric" autocomplete="off" required')}
<p class="muted" style="font-size:14px">By selecting Agree and submit, you agree to the Stripe Connected Account Agreement.</p>
<button type="submit" name="action" value="submit">Agree and submit</button>
<button type="submit" name="action" value="later" class="secondary">Save and finish later</button>
</form></section>`;
  return layout('Get paid by Humanly', body, false, ONBOARDING_NOTE);
}
