import { seedUser } from '../../infra/local/provision';
import { totpCode } from '../../infra/local/totp';
import { useBrowser } from '../support/browser';
import { useTwin } from '../support/twin';
import { joinWaitlist } from '../support/waitlist';

// A twin of its own: the dashboard counts every signup.
const twin = useTwin({ own: true });
const browser = useBrowser();

async function signIn(email: string, password: string, totpSecret = email === twin().admin.email ? twin().admin.totpSecret : undefined) {
  const page = await (await browser().newContext({ viewport: { width: 1280, height: 900 } })).newPage();
  await page.goto(twin().urls.admin);
  await page.getByLabel(/^Email/).fill(email);
  await page.getByLabel(/^Password/).fill(password);
  if (totpSecret) await page.getByLabel(/^Two-factor code/).fill(totpCode(totpSecret));
  await page.getByRole('button', { name: 'Sign in' }).click();
  return page;
}

describe('review console', () => {
  it('signs an admin in to the dashboard with the waitlist figures, and out again', async () => {
    await joinWaitlist(twin(), { email: 'one@fans.example' });
    await joinWaitlist(twin(), { email: 'two@fans.example' });
    const page = await signIn(twin().admin.email, twin().admin.password);
    await page.getByText('Waitlist: 2 of 200 signed up').waitFor({ timeout: 15_000 });
    await page.getByRole('button', { name: 'Profile' }).click();
    await page.getByRole('menuitem', { name: 'Logout' }).click();
    await page.getByRole('button', { name: 'Sign in' }).waitFor();
  }, 60_000);

  it('shows a signed-in non-admin the no-access message and no data', async () => {
    await seedUser(twin().urls.cognito, twin().userPoolId, { email: 'fan@people.example', password: 'Str0ng!Passw0rd', groups: ['client'] });
    const page = await signIn('fan@people.example', 'Str0ng!Passw0rd');
    await page.getByRole('heading', { name: 'No access' }).waitFor({ timeout: 15_000 });
    expect(await page.getByText(/Waitlist: \d+ of/).count()).toBe(0);
  }, 60_000);

  it('takes an admin without two-factor sign-in through setting it up, then asks for the code at sign-in', async () => {
    const email = 'second.admin@humanly.local';
    const password = 'Str0ng!Passw0rd';
    await seedUser(twin().urls.cognito, twin().userPoolId, { email, password, groups: ['admin'] });
    const page = await signIn(email, password);
    await page.getByRole('heading', { name: 'Turn on two-factor sign-in' }).waitFor({ timeout: 15_000 });
    expect(await page.getByText(/Waitlist: \d+ of/).count()).toBe(0);
    await page.getByRole('button', { name: 'Set up an authenticator app' }).click();
    const secret = (await page.getByLabel('Authenticator key').textContent())!.trim();
    expect(await page.getByLabel('Authenticator address').textContent()).toContain(`secret=${secret}`);
    await page.getByLabel(/^Code from your app/).fill('000000');
    await page.getByRole('button', { name: 'Turn on two-factor sign-in' }).click();
    if (totpCode(secret) !== '000000') await page.getByText(/That code is not right/).waitFor();
    await page.getByLabel(/^Code from your app/).fill(totpCode(secret));
    await page.getByRole('button', { name: 'Turn on two-factor sign-in' }).click();
    await page.getByRole('button', { name: 'Sign in' }).waitFor({ timeout: 15_000 });

    // Now the password alone is not enough; with the code the dashboard loads.
    await page.getByLabel(/^Email/).fill(email);
    await page.getByLabel(/^Password/).fill(password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByText('Enter the six-digit code from your authenticator app.').waitFor({ timeout: 15_000 });
    await page.getByLabel(/^Two-factor code/).fill(totpCode(secret));
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByText(/Waitlist: \d+ of 200 signed up/).waitFor({ timeout: 15_000 });
  }, 90_000);
});
