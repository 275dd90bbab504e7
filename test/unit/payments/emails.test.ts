// The payments emails (functions/payments/emails.ts): what each tells the client and where it links.
import { paymentFailedEmail, planActiveEmail, planEndedEmail, portalLinkOf } from '../../../functions/payments/emails';

const siteUrl = 'https://humanly.example/';

describe('payments emails', () => {
  it('plan active: the allowance, the renewal date and price, a link to the portal', () => {
    const email = planActiveEmail({ name: 'Ada', plan: 'pro', renewsAt: '2030-02-15T12:00:00.000Z', siteUrl });
    expect(email.subject).toBe('Your Humanly Pro plan is active');
    expect(email.text).toContain('It gives you 300 credits a month, added when each month is paid');
    expect(email.text).toContain('It renews on February 15, 2030 for $109.');
    expect(email.text).toContain('https://humanly.example/client-portal');
  });

  it('payment failed: the amount, the next attempt or that it was the last, and the link that opens the billing portal', () => {
    const retry = paymentFailedEmail({ name: 'Ada <b>', plan: 'starter', amountCents: 3500, nextAttemptAt: '2030-02-18T12:00:00.000Z', siteUrl });
    expect(retry.subject).toBe('Your Humanly payment did not go through');
    expect(retry.text).toContain('We could not take the $35 payment for your Starter plan.');
    expect(retry.text).toContain('we will try your card again on February 18, 2030');
    expect(retry.text).toContain(`Update your payment details: ${portalLinkOf(siteUrl)}`);
    expect(portalLinkOf(siteUrl)).toBe('https://humanly.example/client-portal?billing=portal');
    expect(retry.html).toContain('Hi Ada &#60;b&#62;,');
    expect(retry.html).not.toContain('<b>');
    const last = paymentFailedEmail({ plan: 'starter', amountCents: 3500, siteUrl });
    expect(last.text).toContain('This was the last attempt');
    expect(last.text.startsWith('Hi,')).toBe(true);
  });

  it('plan ended: the account is on Free, credits stay until they expire', () => {
    const email = planEndedEmail({ name: 'Ada', plan: 'enterprise', siteUrl });
    expect(email.subject).toBe('Your Humanly Enterprise plan has ended');
    expect(email.text).toContain('your account is on the Free plan now');
    expect(email.text).toContain('https://humanly.example/pricing');
  });
});
