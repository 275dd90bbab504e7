import type { BrowserContext, Locator, Page } from 'playwright-core';
import { AdminGetUserCommand } from '@aws-sdk/client-cognito-identity-provider';
import { creditLedger } from '../../functions/accounts/credits';
import { PROMOTIONAL_LOT } from '../../events/plans';
import { createAcceptedTalent } from '../support/accepted-talent';
import { gotoApp, onOwnNetwork, useBrowser } from '../support/browser';
import { eventually } from '../support/eventually';
import { cognitoClient, documentClient, useTwin } from '../support/twin';
import { seriousViolations, saveShots } from '../support/a11y';
import { fileMarker } from '../support/marker';

// The two portals in Chromium on the twin (docs/product.md#client-portal, #talent-portal): a
// person signs up on /sign-up, reads the code on the twin's Sent emails page, confirms and lands
// in their portal with the account the API holds. With SHOTS=<dir>, each portal is also saved as
// a screenshot at 390 and 1280 px.
jest.setTimeout(120_000);
const twin = useTwin();
const marker = fileMarker('pt');
const PASSWORD = 'Portal-Passw0rd!';

const browser = useBrowser();

async function newPage(width = 1280): Promise<{ context: BrowserContext; page: Page; errors: string[] }> {
  const context = await browser().newContext({ viewport: { width, height: 900 } });
  await onOwnNetwork(context, twin().urls.cognito);
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  return { context, page, errors };
}

/** The code in the newest email to `address`, read on the Sent emails page as a person would. */
async function codeFromSentEmails(context: BrowserContext, address: string): Promise<string> {
  const mail = await context.newPage();
  try {
    await mail.goto(twin().urls.mail);
    const email = mail.locator('.email').filter({ hasText: `To: ${address}` }).first();
    await email.waitFor({ timeout: 20_000 });
    const text = email.getByRole('button', { name: 'Toggle text view' });
    if (await text.count()) {
      await text.click();
    } else {
      await email.getByRole('button', { name: 'Toggle HTML source view' }).click();
    }
    const body = await email.locator('.email-text, .email-source').first().innerText();
    const code = body.match(/\b(\d{6})\b/)?.[1];
    if (!code) throw new Error(`no six-digit code in the email to ${address}: ${body.slice(0, 200)}`);
    return code;
  } finally {
    await mail.close();
  }
}

/** Signs up on /sign-up, confirms with the emailed code, and waits for the portal the site opens. */
async function signUp(page: Page, role: 'client' | 'talent', fullName: string, email: string): Promise<void> {
  await gotoApp(page, `${twin().urls.web}/sign-up`);
  await page.getByTestId(`role-${role}`).click();
  await page.getByLabel('Full name').fill(fullName);
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
  await page.getByRole('button', { name: 'Create account' }).click();
  await page.getByLabel('Code').waitFor({ timeout: 20_000 });
  await page.getByLabel('Code').fill(await codeFromSentEmails(page.context(), email));
  await page.getByRole('button', { name: 'Confirm and continue' }).click();
  await page.waitForURL(new RegExp(`/${role}-portal$`), { timeout: 30_000 });
}

/** Waits until the element has the focus (moved in an effect, after the render that shows it). */
async function waitFocused(locator: Locator): Promise<void> {
  await eventually(() => locator.evaluate((el) => el === document.activeElement, undefined, { timeout: 500 }), { timeoutMs: 30_000, what: `${String(locator)} to get the focus` });
}

describe('portals', () => {
  it('sends a signed-out visitor to sign in, with the portal to come back to', async () => {
    const { context, page } = await newPage();
    await gotoApp(page, `${twin().urls.web}/talent-portal`);
    await page.waitForURL(/\/sign-in\?next=%2Ftalent-portal$/);
    await context.close();
  });

  it('a new client signs up, confirms and sees 10 credits, the Free plan and the grant in the ledger; edits the name', async () => {
    const email = `client.${marker}@people.example`;
    const { context, page, errors } = await newPage();
    await signUp(page, 'client', 'Rita Client', email);

    await page.getByRole('heading', { level: 1, name: 'Welcome, Rita' }).waitFor();
    expect(await page.getByTestId('balance-number').textContent()).toBe('10');
    expect(await page.getByTestId('plan-name').textContent()).toBe('Free');
    expect(await page.getByTestId('profile-email').textContent()).toBe(email);
    const entry = page.getByTestId('ledger-entry');
    await entry.first().waitFor();
    expect(await entry.count()).toBe(1);
    expect(await entry.getByTestId('ledger-kind').textContent()).toBe('Grant');
    expect(await entry.getByTestId('ledger-change').textContent()).toBe('+10');
    expect(await entry.getByTestId('ledger-balance').textContent()).toBe('10');
    expect((await entry.getByTestId('ledger-reason').textContent())?.trim()).not.toBe('');
    expect(await page.getByTestId('generation-history').getByRole('link', { name: /Create your first image/ }).getAttribute('href')).toBe('/create');
    expect(await seriousViolations(page)).toEqual([]);
    await saveShots(page, 'client-portal');

    // The name, edited in place and saved through PATCH /me (a reload reads it back).
    await page.getByRole('button', { name: 'Edit full name' }).click();
    await page.getByLabel('Full name').fill('Rita Lopes');
    await page.getByRole('button', { name: 'Save name' }).click();
    await page.getByRole('status').filter({ hasText: 'Name saved: Rita Lopes.' }).waitFor();

    await page.reload();
    await page.getByRole('heading', { level: 1, name: 'Welcome, Rita' }).waitFor();
    expect(await page.getByTestId('profile-name').textContent()).toBe('Rita Lopes');

    // A longer history, written by the ledger itself: 20 lines a page, the rest behind "Load more".
    const user = await cognitoClient(twin()).send(new AdminGetUserCommand({ UserPoolId: twin().userPoolId, Username: email }));
    const accountId = user.UserAttributes?.find((a) => a.Name === 'sub')?.Value;
    if (!accountId) throw new Error('the client has no sub');
    const ledger = creditLedger(documentClient(twin()), twin().physicalName('AccountsTable'));
    await ledger.reserve(accountId, { credits: 3, key: `r-${marker}`, generationId: `g-${marker}`, reason: 'Generation of 3 images' });
    await ledger.commit(accountId, { credits: 2, key: `c-${marker}`, generationId: `g-${marker}`, reason: '2 images delivered' });
    await ledger.release(accountId, { credits: 1, key: `l-${marker}`, generationId: `g-${marker}`, reason: '1 image not delivered' });
    for (let i = 1; i <= 20; i++) await ledger.grant(accountId, { credits: 1, key: `g-${marker}-${i}`, reason: `Bonus credit ${i}`, lot: PROMOTIONAL_LOT });
    await page.reload();
    await page.getByRole('heading', { level: 1, name: 'Welcome, Rita' }).waitFor();
    expect(await page.getByTestId('balance-number').textContent()).toBe('28');
    await entry.nth(19).waitFor();
    expect(await entry.count()).toBe(20);
    expect(await entry.first().getByTestId('ledger-reason').textContent()).toBe('Bonus credit 20');
    await page.getByRole('button', { name: 'Load more' }).click();
    await page.getByRole('status').filter({ hasText: '4 more entries loaded.' }).waitFor();
    expect(await entry.count()).toBe(24);
    const last = (n: number) => entry.nth(24 - n);
    expect(await last(4).getByTestId('ledger-kind').textContent()).toBe('Returned');
    expect(await last(4).getByTestId('ledger-change').textContent()).toBe('+1');
    expect(await last(3).getByTestId('ledger-kind').textContent()).toBe('Spent');
    expect(await last(3).getByTestId('ledger-change').textContent()).toBe('0');
    expect(await last(2).getByTestId('ledger-kind').textContent()).toBe('Reserved');
    expect(await last(2).getByTestId('ledger-change').textContent()).toBe('-3');
    expect(await last(2).getByTestId('ledger-balance').textContent()).toBe('7');
    expect(await last(1).getByTestId('ledger-kind').textContent()).toBe('Grant');
    expect(await page.getByRole('button', { name: 'Load more' }).count()).toBe(0);
    await waitFocused(entry.nth(20));
    await saveShots(page, 'client-portal-ledger');

    // The talent portal is not theirs: a way back to their own.
    await gotoApp(page, `${twin().urls.web}/talent-portal`);
    const wrong = page.getByTestId('wrong-portal');
    await wrong.getByRole('heading', { name: 'This is the talent portal' }).waitFor();
    expect(await wrong.getByRole('link', { name: /Go to the client portal/ }).getAttribute('href')).toBe('/client-portal');
    await saveShots(page, 'wrong-portal');

    // Sign out from the portal itself: to sign-in, and the portal asks to sign in again.
    await gotoApp(page, `${twin().urls.web}/client-portal`);
    const header = page.locator('.acct-header');
    await header.getByText(email).waitFor({ timeout: 20_000 });
    // The site's header knows a signed-in browser: its link to the portal says so, on every page.
    const headerLink = page.getByTestId('sign-in-link');
    await headerLink.filter({ hasText: 'Account' }).waitFor();
    await gotoApp(page, `${twin().urls.web}/talent`);
    await headerLink.filter({ hasText: 'Account' }).waitFor();
    expect(await headerLink.getAttribute('href')).toBe('/portal');
    await gotoApp(page, `${twin().urls.web}/client-portal`);
    await header.getByRole('button', { name: 'Sign out' }).click();
    await page.waitForURL(/\/sign-in$/, { timeout: 20_000 });
    await headerLink.filter({ hasText: 'Sign in' }).waitFor();
    await gotoApp(page, `${twin().urls.web}/client-portal`);
    await page.waitForURL(/\/sign-in\?next=%2Fclient-portal$/, { timeout: 20_000 });
    expect(errors).toEqual([]);
    await context.close();
  });

  it('a new talent whose email has an accepted application sees it, the likeness, and saves excluded industries', async () => {
    const email = `accepted.${marker}@people.example`;
    const { submittedAt } = await createAcceptedTalent(twin(), { email, talentId: `portal-${marker}`, firstName: 'Ana', lastName: 'Lima', founding: true, marker });
    const { context, page, errors } = await newPage();
    await signUp(page, 'talent', 'Ana Lima', email);

    await page.getByRole('heading', { level: 1, name: 'Welcome, Ana' }).waitFor();
    expect(await page.getByTestId('application-status').textContent()).toBe('Accepted');
    expect(await page.getByTestId('application-submitted').textContent()).toBe(
      `Submitted ${new Date(submittedAt).toLocaleDateString('en-US', { year: 'numeric', month: 'short', day: 'numeric' })}`,
    );
    expect(await page.getByTestId('likeness-name').textContent()).toBe('Ana Lima');
    expect(await page.getByTestId('likeness-status').textContent()).toBe('Hidden');
    expect(await page.getByTestId('likeness-card').getByText('Founding talent').count()).toBe(1);
    // The royalties load after the page (GET /me/earnings, GET /me/statements).
    await page.getByTestId('royalties').getByText('No royalties yet').waitFor({ timeout: 20_000 });
    // The count of images made with the likeness loads after the page (GET /me/likeness-usage).
    await page.getByTestId('likeness-images').getByText('No images yet').waitFor();

    const industries = page.getByTestId('excluded-industries');
    expect(await industries.getByRole('checkbox', { checked: true }).count()).toBe(0);
    await industries.getByLabel('Religion').check();
    await industries.getByLabel('Alcohol').check();
    await industries.getByRole('button', { name: 'Save excluded industries' }).click();
    await industries.getByRole('status').filter({ hasText: 'apply to every generation from now on' }).waitFor();
    expect(await seriousViolations(page)).toEqual([]);
    await saveShots(page, 'talent-portal-accepted');

    await page.reload();
    await page.getByRole('heading', { level: 1, name: 'Welcome, Ana' }).waitFor();
    expect(await industries.getByLabel('Religion').isChecked()).toBe(true);
    expect(await industries.getByLabel('Politics').isChecked()).toBe(false);
    expect(await industries.getByLabel('Alcohol').isChecked()).toBe(true);
    expect(errors).toEqual([]);
    await context.close();
  });

  it('a new talent without an application sees the links to apply and no likeness, and edits the name by keyboard', async () => {
    const email = `talent.${marker}@people.example`;
    const { context, page, errors } = await newPage(390);
    await signUp(page, 'talent', 'Noor Talent', email);

    await page.getByRole('heading', { level: 1, name: 'Welcome, Noor' }).waitFor();
    expect(await page.getByTestId('application-status').textContent()).toBe('No application yet');
    expect(await page.getByTestId('apply-founding').getAttribute('href')).toBe('/founding-talent-application');
    expect(await page.getByTestId('apply-standard').getAttribute('href')).toBe('/talent-application');
    expect(await page.getByTestId('likeness-card').count()).toBe(0);
    expect(await page.getByTestId('excluded-industries').count()).toBe(0);
    expect(await page.getByTestId('talent-locked').textContent()).toContain(email);

    // The name by keyboard alone: Escape leaves it as it was, an empty name is refused with its
    // reason, Enter saves; the focus returns to "Edit".
    const edit = page.getByRole('button', { name: 'Edit full name' });
    await edit.focus();
    await page.keyboard.press('Enter');
    const name = page.getByLabel('Full name');
    await waitFocused(name);
    await page.keyboard.press('Escape');
    await waitFocused(edit);
    await page.keyboard.press('Enter');
    await name.fill('   ');
    await page.keyboard.press('Enter');
    await page.getByRole('alert').filter({ hasText: 'Enter your full name.' }).waitFor();
    await name.fill('Noor Haddad');
    await page.keyboard.press('Enter');
    await page.getByRole('status').filter({ hasText: 'Name saved: Noor Haddad.' }).waitFor();
    expect(await page.getByTestId('profile-name').textContent()).toBe('Noor Haddad');
    await waitFocused(edit);
    expect(await seriousViolations(page)).toEqual([]);
    await saveShots(page, 'talent-portal-none');
    expect(errors).toEqual([]);
    await context.close();
  });
});
