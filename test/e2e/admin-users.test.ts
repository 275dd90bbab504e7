import type { Page } from 'playwright-core';
import { seedUser } from '../../infra/local/provision';
import { AdminUserDetail } from '../../events/accounts';
import { accountStore } from '../../functions/accounts/store';
import { useBrowser } from '../support/browser';
import { adminGet, signInToConsole } from '../support/review-console';
import { documentClient, useTwin } from '../support/twin';

// The console's Users resource on the twin, in Chromium: an admin finds a client by email,
// grants credits with a reason, sees the new balance and the ledger line naming them, changes
// the plan and sees both changes in the audit trail.
jest.setTimeout(300_000);
const twin = useTwin();
const browser = useBrowser();

/** A client as sign-up leaves them: in the pool, with an account holding the Free plan's 10 credits. */
async function newClient(email: string): Promise<string> {
  const { sub } = await seedUser(twin().urls.cognito, twin().userPoolId, { email, password: 'Str0ng!Passw0rd-e2e', groups: ['client'], attributes: { 'custom:role': 'client' } });
  await accountStore(documentClient(twin()), twin().physicalName('AccountsTable')).create({ id: sub!, email, full_name: 'Uma Console', role: 'client' });
  return sub!;
}

const section = (page: Page, name: string) => page.getByRole('region', { name });

describe("the console's Users resource", () => {
  it('finds a client by email, grants credits with a reason, changes the plan, and shows the ledger and the audit', async () => {
    const email = `users.${Date.now().toString(36)}@people.example`;
    const id = await newClient(email);
    const page = await signInToConsole(browser(), twin(), twin().admin.email, twin().admin.password);

    await page.getByRole('menuitem', { name: 'Users' }).click();
    await page.getByPlaceholder('Search email').fill(email);
    const row = page.getByRole('row').filter({ hasText: email });
    await row.waitFor({ timeout: 30_000 });
    // The search applies once typing pauses: then only the header and the one client remain.
    await page.getByRole('row').nth(2).waitFor({ state: 'detached', timeout: 30_000 });
    expect(await page.getByRole('row').count()).toBe(2);
    await row.click();
    await page.getByRole('heading', { name: email, level: 1 }).waitFor({ timeout: 30_000 });
    await page.getByTestId('credit-balance').getByText('10', { exact: true }).waitFor();

    // Grant credits: a dialog with credits, the reason's category and the reason; the confirm button waits for all three.
    await page.getByRole('button', { name: 'Grant credits' }).click();
    const grant = page.getByRole('dialog', { name: `Grant credits to ${email}` });
    await grant.getByRole('spinbutton', { name: 'Credits' }).fill('25');
    const confirm = grant.getByRole('button', { name: 'Grant credits' });
    expect(await confirm.isDisabled()).toBe(true);
    await grant.getByRole('textbox', { name: 'Reason' }).fill('Launch week thanks');
    expect(await confirm.isDisabled()).toBe(true);
    await grant.getByRole('combobox', { name: 'Reason category' }).click();
    await page.getByRole('option', { name: 'Goodwill' }).click();
    await confirm.click();
    await grant.waitFor({ state: 'hidden', timeout: 30_000 });
    await page.getByTestId('credit-balance').getByText('35', { exact: true }).waitFor({ timeout: 30_000 });
    const line = section(page, 'Credit ledger').getByRole('row').filter({ hasText: 'Launch week thanks' });
    await line.waitFor();
    expect(await line.textContent()).toContain(twin().admin.email);
    expect(await line.textContent()).toContain('+25');

    // Change the plan: select, then confirm.
    await page.getByRole('combobox', { name: 'Plan' }).click();
    await page.getByRole('option', { name: 'Pro' }).click();
    await page.getByRole('button', { name: 'Change plan' }).click();
    const change = page.getByRole('dialog', { name: `Change the plan of ${email}?` });
    await change.getByText('From Free to Pro').waitFor();
    await change.getByRole('button', { name: 'Change to Pro' }).click();
    await change.waitFor({ state: 'hidden', timeout: 30_000 });

    // The audit trail names the admin for both changes.
    const audit = section(page, 'Audit trail');
    await audit.getByRole('row').filter({ hasText: 'Plan changed' }).filter({ hasText: twin().admin.email }).waitFor({ timeout: 30_000 });
    await audit.getByRole('row').filter({ hasText: 'Credits granted' }).filter({ hasText: '25 credits (goodwill): Launch week thanks' }).filter({ hasText: twin().admin.email }).waitFor();

    // What the API stored: one grant, the new plan.
    const stored = AdminUserDetail.parse((await adminGet(twin(), `/users/${id}`)).json);
    expect(stored).toMatchObject({ plan: 'pro', balance: 35 });
    expect(stored.ledger.filter((e) => e.by === twin().admin.email)).toHaveLength(1);
  });
});
