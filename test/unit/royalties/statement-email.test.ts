// The statement-ready email (functions/royalties/emails.ts): the month and amount as
// a talent reads them, the portal link, and the talent's name escaped in the HTML.
import { dollars, monthLabel, statementReadyEmail } from '../../../functions/royalties/emails';

describe('the statement email', () => {
  test('amounts in dollars and cents, months by name', () => {
    expect([dollars(0), dollars(5), dollars(33), dollars(448), dollars(123_456)]).toEqual(['$0.00', '$0.05', '$0.33', '$4.48', '$1,234.56']);
    expect([monthLabel('2026-11'), monthLabel('2019-01'), monthLabel('2026-12')]).toEqual(['November 2026', 'January 2019', 'December 2026']);
  });

  test('what it pays, from how many images, and where to see every line; under a cent is carried forward', () => {
    const paid = statementReadyEmail({ talentName: 'Ana <b>Lima</b>', month: '2026-11', royaltyCents: 448, licenses: 51, siteUrl: 'https://humanly.example/' });
    expect(paid.subject).toBe('Your Humanly statement for November 2026 is ready');
    expect(paid.text).toContain('Your royalties for November 2026: $4.48, from 51 licensed images.');
    expect(paid.text).toContain('https://humanly.example/talent-portal');
    // Paid through Stripe payouts, never to the PayPal or Wise details of before.
    expect(paid.text).toContain('set up for payouts through Stripe');
    expect(paid.text).not.toMatch(/PayPal|Wise/);
    expect(paid.html).toContain('Ana &#60;b&#62;Lima&#60;/b&#62;');
    expect(paid.html).not.toContain('<b>Lima');
    const carried = statementReadyEmail({ talentName: 'Ana', month: '2026-12', royaltyCents: 0, licenses: 1, siteUrl: 'https://humanly.example' });
    expect(carried.text).toContain('come to less than a cent, from 1 licensed image: the amount is carried to your next statement.');
    expect(carried.text).not.toContain('payout');
  });
});
