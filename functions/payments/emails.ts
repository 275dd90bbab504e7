// The payments wing's emails (docs/payments.md#emails): a plan became active, a renewal's payment
// failed (with the link that opens the billing portal), a plan ended. Each is sent once, by the
// webhook, through the shared sender.
import { PRODUCT_NAME } from '../../events/product';
import { formatUsd, planById, type PlanId } from '../../events/plans';
import { escapeHtml, frame, type Email } from '../shared/email-layout';

const site = (siteUrl: string) => siteUrl.replace(/\/+$/, '');
/** The client portal's address that opens Stripe's billing portal on arrival. */
export const portalLinkOf = (siteUrl: string) => `${site(siteUrl)}/client-portal?billing=portal`;

/** `2030-02-15T12:00:00.000Z` as `February 15, 2030`. */
function dateLabel(iso: string): string {
  return new Date(iso).toLocaleDateString('en-US', { month: 'long', day: 'numeric', year: 'numeric', timeZone: 'UTC' });
}

function email(subject: string, lines: string[], link: { url: string; label: string }): Email {
  const text = [...lines, '', `${link.label}: ${link.url}`, '', `The ${PRODUCT_NAME} team`].join('\n');
  const html = frame(
    subject,
    `${lines
      .filter((l) => l)
      .map((l) => `<p>${escapeHtml(l)}</p>`)
      .join('\n')}
<p><a href="${escapeHtml(link.url)}">${escapeHtml(link.label)}</a></p>
<p>The ${PRODUCT_NAME} team</p>`,
  );
  return { subject, text, html };
}

const hi = (name: string | undefined) => (name?.trim() ? `Hi ${name.trim()},` : 'Hi,');

/** "Your <Plan> plan is active": its monthly credits and the renewal date. */
export function planActiveEmail(input: { name?: string; plan: PlanId; renewsAt: string; siteUrl: string }): Email {
  const plan = planById(input.plan);
  return email(
    `Your ${PRODUCT_NAME} ${plan.name} plan is active`,
    [
      hi(input.name),
      '',
      `Thank you: your ${plan.name} plan is active. It gives you ${plan.monthlyCredits} credits a month, added when each month is paid; each month's credits can be used until the end of the next.`,
      `It renews on ${dateLabel(input.renewsAt)} for ${formatUsd(plan.monthlyPriceCents)}. Change or cancel it any time in your client portal.`,
    ],
    { url: `${site(input.siteUrl)}/client-portal`, label: 'Open your client portal' },
  );
}

/** "We could not take your payment": the plan stays while the card is tried again; a link to update it. */
export function paymentFailedEmail(input: { name?: string; plan: PlanId; amountCents: number; nextAttemptAt?: string; siteUrl: string }): Email {
  const plan = planById(input.plan);
  const retry = input.nextAttemptAt
    ? `Your ${plan.name} plan stays active for now, and we will try your card again on ${dateLabel(input.nextAttemptAt)}.`
    : `This was the last attempt: unless the invoice is paid, your ${plan.name} plan ends and your account moves to the Free plan.`;
  return email(
    `Your ${PRODUCT_NAME} payment did not go through`,
    [hi(input.name), '', `We could not take the ${formatUsd(input.amountCents)} payment for your ${plan.name} plan.`, retry, 'Update your card in the billing portal to keep your plan.'],
    { url: portalLinkOf(input.siteUrl), label: 'Update your payment details' },
  );
}

/** "Your <Plan> plan has ended": the account is on Free; credits already granted stay until they expire. */
export function planEndedEmail(input: { name?: string; plan: PlanId; siteUrl: string }): Email {
  const plan = planById(input.plan);
  return email(
    `Your ${PRODUCT_NAME} ${plan.name} plan has ended`,
    [
      hi(input.name),
      '',
      `Your ${plan.name} plan has ended and your account is on the Free plan now.`,
      'Credits you already have stay in your account until they expire. Choose a plan again whenever you like.',
    ],
    { url: `${site(input.siteUrl)}/pricing`, label: 'See the plans' },
  );
}
