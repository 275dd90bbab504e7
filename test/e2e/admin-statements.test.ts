import * as fs from 'node:fs';
import { AdminStats } from '../../events/admin';
import { dollarsOfCents } from '../../events/royalty-format';
import { AdminStatement, AdminStatementList } from '../../events/royalties';
import { previousMonth } from '../../functions/royalties/arithmetic';
import { NOTHING_DUE_MESSAGE, statementId } from '../../events/royalty-values';
import { useBrowser } from '../support/browser';
import { parseCsv } from '../support/csv';
import { adminGet, signInToConsole } from '../support/review-console';
import { putClosedStatement } from '../support/statements';
import { callApi, documentClient, idToken, useTwin } from '../support/twin';
import { seriousViolations, saveShots } from '../support/a11y';

// The console's Statements on the twin, in Chromium. A talent of this run has a closed statement
// of last month (the latest a close can have written: only ended months are closed): the admin
// sees it in the dashboard's owed total, follows the figure to the month's list, opens the
// statement and its link to the month's payout run; once a payment outside Stripe is recorded
// (the payouts route, with a reason) the statement shows the reference and the audit line with
// their email, the month's statements CSV says Paid, and the dashboard owes that much less. A
// statement of promotional credits shows the cap's cut and the images that earn nothing, and says
// there is nothing to pay.
jest.setTimeout(120_000);
const twin = useTwin();
const browser = useBrowser();

/** What the month's unpaid statements of other talent owe, from the console's list. */
async function othersOwed(month: string, talentId: string): Promise<number> {
  const list = AdminStatementList.parse((await adminGet(twin(), `/statements?month=${month}&limit=500`)).json);
  return list.items
    .filter((s) => s.talentId !== talentId && (s.payout.status === 'due'))
    .reduce((n, s) => n + s.totals.royaltyCents, 0);
}

const owed = async () => AdminStats.parse((await adminGet(twin(), '/stats')).json).royalties;

describe("the console's Statements resource", () => {
  it('shows the owed total, filters to the month, shows a payment outside Stripe with the audit, downloads the CSV, and owes less after', async () => {
    const run = Date.now().toString(36);
    const talentId = `stmt-e2e-${run}`;
    const talentName = `Noor Payout ${run}`;
    const month = previousMonth(new Date().toISOString());
    const doc = documentClient(twin());
    const table = twin().physicalName('GenerationsTable');
    // Founding 35% of $2.00 + $1.00: $1.05.
    await putClosedStatement(doc, table, { talentId, talentName, month, royaltyPlan: 'founding-35', values: [2_000_000, 1_000_000], closedAt: new Date().toISOString() });
    const id = statementId(month, talentId);
    const before = await owed();
    const othersBefore = await othersOwed(month, talentId);
    expect(before.closedMonth).toBe(month);
    expect(before.owedCents).toBeGreaterThanOrEqual(105);

    const page = await signInToConsole(browser(), twin(), twin().admin.email, twin().admin.password);
    const figure = page.getByTestId('royalties-owed-value');
    await figure.getByText(`$${dollarsOfCents(before.owedCents)}`, { exact: true }).waitFor({ timeout: 30_000 });

    // The figure links to the month's statements.
    await figure.getByRole('link').click();
    expect(await page.getByRole('textbox', { name: 'Month (YYYY-MM)' }).inputValue()).toBe(month);
    const row = page.getByRole('row').filter({ hasText: talentName });
    await row.waitFor({ timeout: 30_000 });
    expect(await row.textContent()).toContain('$1.05');
    expect(await row.textContent()).toContain('Due');
    expect(await seriousViolations(page, { afterLoading: true })).toEqual([]);
    await saveShots(page, 'statements-list');
    await row.click();

    // The statement: its lines and the way to its payout run; then paid outside Stripe.
    await page.getByRole('heading', { level: 1, name: new RegExp(`^${talentName} · `) }).waitFor({ timeout: 30_000 });
    await page.getByTestId('statement-line').nth(1).waitFor({ timeout: 30_000 });
    expect(await page.getByTestId('statement-line').count()).toBe(2);
    expect(await page.getByTestId('statement-amount').textContent()).toBe('$1.05');
    expect(await page.getByTestId('payout-run-link').getAttribute('href')).toBe(`#/payout-runs?month=${month}`);
    expect(await page.getByRole('button', { name: 'Mark paid' }).count()).toBe(0);
    const token = await idToken(twin(), twin().admin.email, twin().admin.password);
    const manual = await callApi(twin(), token, 'POST', `/admin/payouts/${id}/manual`, { reference: `WIRE-${run}`, reason: 'Paid by bank wire' });
    expect(manual.status).toBe(200);
    await page.reload();
    await page.getByTestId('payout-reference').getByText(`WIRE-${run}`).waitFor({ timeout: 30_000 });
    const audit = page.getByTestId('statement-audit');
    await audit.first().waitFor({ timeout: 30_000 });
    expect(await audit.first().textContent()).toContain(`Marked paid by ${twin().admin.email}`);
    expect(await audit.first().textContent()).toContain(`Paid outside Stripe (WIRE-${run}): Paid by bank wire`);
    expect(await seriousViolations(page, { afterLoading: true })).toEqual([]);
    await saveShots(page, 'statements-show');
    const stored = AdminStatement.parse((await adminGet(twin(), `/statements/${id}`)).json);
    expect(stored.payout).toMatchObject({ status: 'paid', reference: `WIRE-${run}` });
    expect(stored.audit).toEqual([expect.objectContaining({ by: twin().admin.email, action: 'marked-paid' })]);

    // The month's statements CSV from the list.
    await page.getByRole('link', { name: 'All statements' }).click();
    const button = page.getByRole('button', { name: `Download payout CSV (${month})` });
    await button.waitFor({ timeout: 30_000 });
    const [download] = await Promise.all([page.waitForEvent('download', { timeout: 30_000 }), button.click()]);
    expect(download.suggestedFilename()).toBe(`humanly-payouts-${month}.csv`);
    const rows = parseCsv(fs.readFileSync((await download.path())!, 'utf8'));
    expect(rows.find((r) => r[0] === talentId)).toEqual([talentId, talentName, month, '2', '1.05', 'Paid', stored.payout.paidAt, `WIRE-${run}`]);

    // The dashboard owes that statement no more (other tests' statements of the month, if a close
    // ran meanwhile, are counted from the month's list).
    const after = await owed();
    expect(after.owedCents).toBe(before.owedCents - 105 + ((await othersOwed(month, talentId)) - othersBefore));
    await page.getByRole('menuitem', { name: 'Dashboard' }).click();
    await figure.getByText(`$${dollarsOfCents(after.owedCents)}`, { exact: true }).waitFor({ timeout: 30_000 });
    await saveShots(page, 'statements-dashboard');
  });

  it('shows the promotional section with the cap\'s cut and the images that earn nothing, and says there is nothing to pay', async () => {
    const run = Date.now().toString(36);
    const talentId = `stmt-promo-${run}`;
    const talentName = `Ola Promo ${run}`;
    const month = previousMonth(new Date().toISOString());
    // Two promotional licenses at 20% of $0.298888 (2 x 59,777 = 119,554) under a cap of 0: all cut,
    // nothing due; one image of the talent's own account.
    await putClosedStatement(documentClient(twin()), twin().physicalName('GenerationsTable'), {
      talentId,
      talentName,
      month,
      royaltyPlan: 'standard-tiers',
      values: [],
      promotionalValues: [298_888, 298_888],
      promotionalCapMicros: 0,
      noRoyaltyLicenses: 1,
      closedAt: new Date().toISOString(),
    });
    const page = await signInToConsole(browser(), twin(), twin().admin.email, twin().admin.password);
    await page.getByRole('menuitem', { name: 'Dashboard' }).waitFor({ timeout: 30_000 });
    await page.goto(`${twin().urls.admin}/#/statements/${statementId(month, talentId)}/show`);
    await page.getByRole('heading', { level: 1, name: new RegExp(`^${talentName} · `) }).waitFor({ timeout: 30_000 });
    expect(await page.getByTestId('statement-promotional').textContent()).toBe('2 licenses earned $0.119554; cap $0.00 a month, cut $0.119554');
    expect(await page.getByTestId('statement-no-royalty').textContent()).toBe('1 image by your own account or test grants earns no royalty');
    expect(await page.getByTestId('statement-amount').textContent()).toBe('$0.00');
    await page.getByTestId('statement-line').nth(1).waitFor({ timeout: 30_000 });
    expect(await page.getByTestId('statement-line').count()).toBe(2);
    expect(await page.getByTestId('statement-line').first().textContent()).toContain('Promotional credits at 20%');
    expect(await page.getByTestId('nothing-due').textContent()).toBe(NOTHING_DUE_MESSAGE);
    expect(await seriousViolations(page, { afterLoading: true })).toEqual([]);
    await saveShots(page, 'statements-promotional');
  });
});
