import type { Page } from 'playwright-core';
import { seedUser } from '../../infra/local/provision';
import { TALENT_UNDER_CONTRACT_MESSAGE } from '../../events/generation-values';
import { ExclusiveContractResponse } from '../../events/likeness';
import { accountStore } from '../../functions/accounts/store';
import { createAcceptedTalent } from '../support/accepted-talent';
import { gotoApp, useBrowser } from '../support/browser';
import { adminGet, generateAs, signInToConsole } from '../support/review-console';
import { documentClient, idToken, useTwin } from '../support/twin';
import { seriousViolations } from '../support/a11y';
import { fileMarker } from '../support/marker';

// An exclusive contract in Chromium on the twin (docs/royalties.md#exclusive-contracts): an admin
// records one for client A in the talent's console page (finding A by email, axe on the
// section); client B no longer finds the talent on /create and a direct start is refused with the
// exclusive contract's message; client A finds the talent on /create.
jest.setTimeout(120_000);
const twin = useTwin();
const marker = fileMarker('fz');
const PASSWORD = 'Frozen-Passw0rd!';

const browser = useBrowser();

async function client(who: string) {
  const email = `${who}.${marker}@brands.example`;
  const { sub } = await seedUser(twin().urls.cognito, twin().userPoolId, { email, password: PASSWORD, groups: ['client'], name: `${who} ${marker}`, attributes: { 'custom:role': 'client' } });
  await accountStore(documentClient(twin()), twin().physicalName('AccountsTable')).create({ id: sub!, email, full_name: `${who} ${marker}`, role: 'client' });
  return { sub: sub!, email };
}

/** /create signed in as the client, with the model choices loaded (the public list and the client's own). */
async function createPageAs(email: string): Promise<Page> {
  const context = await browser().newContext({ viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  await gotoApp(page, `${twin().urls.web}/sign-in?next=%2Fcreate`);
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await page.waitForURL(/\/create$/, { timeout: 30_000 });
  await page.getByTestId('model-select').locator('option[value="maya-chen"]').waitFor({ state: 'attached', timeout: 20_000 });
  await page.getByTestId('create-balance').waitFor({ timeout: 20_000 });
  return page;
}

const offers = async (page: Page, talentId: string) => {
  // The brand's own list comes after the public one: give it a moment before reading a "no".
  await page.waitForLoadState('networkidle');
  return (await page.getByTestId('model-select').locator(`option[value="${talentId}"]`).count()) === 1;
};

it('an admin records a contract for client A; client B cannot generate the talent, client A sees them on /create', async () => {
  const talentId = `frozen-${marker}`;
  const name = `Fay ${marker}`;
  await createAcceptedTalent(twin(), { email: `fay.${marker}@people.example`, talentId, firstName: 'Fay', lastName: marker, founding: false, marker });
  const admin = await idToken(twin(), twin().admin.email, twin().admin.password, 'admin');
  const adminCall = (path: string, method: string, body: unknown) =>
    fetch(`${twin().urls.api}/admin${path}`, { method, headers: { authorization: `Bearer ${admin}`, 'content-type': 'application/json' }, body: JSON.stringify(body) });
  // A listed talent with a model (the reviewer's steps once the profile is ready).
  expect((await adminCall(`/talent/${talentId}`, 'PATCH', { status: 'active' })).status).toBe(200);
  expect((await adminCall(`/talent/${talentId}/generation-config`, 'PUT', { model: 'humanly-preview/maya-chen', triggerWord: 'FAYWRD' })).status).toBe(200);
  const [brandA, brandB] = await Promise.all([client('ada'), client('bea')]);

  // The console: find client A by email, name the brand, an end date; record.
  const consolePage = await signInToConsole(browser(), twin(), twin().admin.email, twin().admin.password);
  await consolePage.getByRole('menuitem', { name: 'Talent' }).waitFor({ timeout: 30_000 });
  await consolePage.goto(`${twin().urls.admin}/#/talent/${talentId}`);
  const section = consolePage.getByRole('region', { name: 'Exclusive contract' });
  await section.waitFor({ timeout: 30_000 });
  await section.getByText('No contract in force').waitFor({ timeout: 15_000 });
  await section.getByRole('combobox', { name: 'Find a client account' }).fill(brandA.email);
  await consolePage.getByRole('option', { name: new RegExp(brandA.email.replace(/\./g, '\\.')) }).click();
  expect(await section.getByLabel(/^Client account id/).inputValue()).toBe(brandA.sub);
  await section.getByLabel(/^Brand name/).fill(`Ada Brand ${marker}`);
  const end = new Date(Date.now() + 30 * 24 * 3600_000);
  const local = `${end.getFullYear()}-${String(end.getMonth() + 1).padStart(2, '0')}-${String(end.getDate()).padStart(2, '0')}T12:00`;
  await section.getByLabel(/^Ends/).fill(local);
  await section.getByRole('button', { name: 'Record contract' }).click();
  await section.getByText(/A contract is in force until/).waitFor({ timeout: 20_000 });
  expect(await section.textContent()).toContain(`Ada Brand ${marker}`);
  expect(await section.textContent()).toContain(`by ${twin().admin.email}`);
  expect(await seriousViolations(consolePage, { include: '[data-testid="exclusive-contract-section"]' })).toEqual([]);
  const recorded = ExclusiveContractResponse.parse((await adminGet(twin(), `/talent/${talentId}/exclusive-contract`)).json);
  expect(recorded.current).toMatchObject({ accountId: brandA.sub, brandName: `Ada Brand ${marker}` });

  // Client B: not among the choices, and a direct start is refused with the exclusive contract's message.
  const pageB = await createPageAs(brandB.email);
  expect(await offers(pageB, talentId)).toBe(false);
  const refused = await generateAs(twin(), await idToken(twin(), brandB.email, PASSWORD, 'web'), { talentId, prompt: `A portrait ${marker}`, style: 'Portrait', count: 1 });
  expect(refused).toMatchObject({ status: 'failed', failure: { message: TALENT_UNDER_CONTRACT_MESSAGE } });

  // Client A: the talent is among their choices.
  const pageA = await createPageAs(brandA.email);
  await pageA.getByTestId('model-select').locator(`option[value="${talentId}"]`).waitFor({ state: 'attached', timeout: 20_000 });
  await pageA.getByTestId('model-select').selectOption(talentId);
  await pageA.getByTestId('create-selected-talent').filter({ hasText: name }).waitFor({ timeout: 10_000 });
});
