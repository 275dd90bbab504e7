import {
  AdminAddUserToGroupCommand,
  AdminCreateUserCommand,
  ConfirmSignUpCommand,
  GetTokensFromRefreshTokenCommand,
  SignUpCommand,
} from '@aws-sdk/client-cognito-identity-provider';
import type { BrowserContext, Page } from 'playwright-core';
import { SIGN_IN_FAILED_MESSAGE } from '../../events/account-values';
import { gotoApp, useBrowser } from '../support/browser';
import { latestCognitoCode } from '../support/cognito-mail';
import { cognitoClient, useTwin, type TestTwin } from '../support/twin';
import { seriousViolations } from '../support/a11y';
import { fileMarker } from '../support/marker';
import { eventually } from '../support/eventually';

// Signing in on the site, in Chromium on the twin (docs/product.md#sign-in): the same message for
// a wrong password and an unknown email, an unconfirmed account sent to confirm with a new code,
// password recovery with the code read on the Sent emails page, sign-out everywhere, and a session
// that outlives short-lived tokens through refresh (a twin of its own, with 8-second tokens).
// Sign-up -> confirm -> portal for each role is in portals.test.ts.
jest.setTimeout(90_000);
const PASSWORD = 'Accounts-Passw0rd!';
const marker = fileMarker('ac');
const address = (name: string) => `${name}.${marker}@people.example`;

const browser = useBrowser();

async function newPage(): Promise<{ context: BrowserContext; page: Page; errors: string[] }> {
  const context = await browser().newContext({ viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  return { context, page, errors };
}

/** Signs up through Cognito's API (as the sign-up page does) and, unless told not to, confirms with the emailed code. */
async function account(twin: TestTwin, email: string, { confirm = true } = {}): Promise<void> {
  const cognito = cognitoClient(twin);
  await cognito.send(
    new SignUpCommand({
      ClientId: twin.clientIds.web,
      Username: email,
      Password: PASSWORD,
      UserAttributes: [
        { Name: 'email', Value: email },
        { Name: 'name', Value: 'Robin Reader' },
        { Name: 'custom:role', Value: 'client' },
      ],
    }),
  );
  if (confirm) {
    const code = await latestCognitoCode(twin, email);
    await cognito.send(new ConfirmSignUpCommand({ ClientId: twin.clientIds.web, Username: email, ConfirmationCode: code }));
  }
  cognito.destroy();
}

/** The newest code emailed to `email`, read on the twin's Sent emails page as a person would. */
async function codeOnSentEmailsPage(twin: TestTwin, context: BrowserContext, email: string, previous?: string): Promise<string> {
  const mail = await context.newPage();
  try {
    return await eventually(
      async () => {
        await mail.goto(twin.urls.mail);
        const newest = mail.locator('.email').filter({ hasText: `To: ${email}` }).first();
        if (!(await newest.count())) return undefined;
        const textView = newest.getByRole('button', { name: 'Toggle text view' });
        await ((await textView.count()) ? textView : newest.getByRole('button', { name: 'Toggle HTML source view' })).click();
        const code = (await newest.locator('.email-text, .email-source').first().innerText()).match(/\b(\d{6})\b/)?.[1];
        return code !== previous && code;
      },
      { timeoutMs: 30_000, what: `a new code for ${email} on the Sent emails page` },
    );
  } finally {
    await mail.close();
  }
}

async function signIn(page: Page, web: string, email: string, password: string, next = ''): Promise<void> {
  await gotoApp(page, `${web}/sign-in${next}`);
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
}

/** The refresh token Amplify keeps for this browser (in localStorage, under the web client's id). */
async function storedRefreshToken(page: Page): Promise<string> {
  const token = await page.evaluate(() => Object.entries(localStorage).find(([key]) => key.endsWith('.refreshToken'))?.[1]);
  if (!token) throw new Error('no refresh token stored');
  return token;
}

describe('sign-in on the shared twin', () => {
  const twin = useTwin();

  it('answers a wrong password and an unknown email with the identical message, announced', async () => {
    const email = address('known');
    await account(twin(), email);
    const { page, errors } = await newPage();

    await signIn(page, twin().urls.web, email, 'Wrong-Passw0rd!');
    const alert = page.getByRole('alert').filter({ hasText: SIGN_IN_FAILED_MESSAGE });
    await alert.waitFor();
    const wrongPassword = await page.getByTestId('account-error').innerText();

    await signIn(page, twin().urls.web, address('nobody'), PASSWORD);
    await alert.waitFor();
    const unknownEmail = await page.getByTestId('account-error').innerText();

    expect(wrongPassword).toBe(SIGN_IN_FAILED_MESSAGE);
    expect(unknownEmail).toBe(wrongPassword);
    expect(page.url()).toContain('/sign-in');
    expect(errors).toEqual([]);
  });

  it('sends an unconfirmed account to the confirmation step with a new code, then into the portal', async () => {
    const email = address('unconfirmed');
    await account(twin(), email, { confirm: false });
    const first = await latestCognitoCode(twin(), email);
    const { page, errors } = await newPage();

    await signIn(page, twin().urls.web, email, PASSWORD);
    await page.waitForURL(/\/confirm-sign-up\?/);
    await page.getByRole('status').filter({ hasText: 'not confirmed yet' }).waitFor();
    // The address came along in history state, not in the URL (logs, referrers).
    expect(page.url()).not.toContain(encodeURIComponent(email));
    expect(page.url()).not.toContain(email);
    await page.getByTestId('confirm-sign-up-page').getByText(email).waitFor();
    expect(await page.getByLabel('Email').count()).toBe(0);
    // A new code went out; the old one is not the one to use.
    const second = await latestCognitoCode(twin(), email, { previous: first });
    await page.getByLabel('Code').fill(second);
    await page.getByRole('button', { name: 'Confirm and continue' }).click();
    await page.waitForURL(/\/client-portal$/, { timeout: 30_000 });
    await page.getByText('Robin Reader').first().waitFor({ timeout: 20_000 });
    expect(errors).toEqual([]);
  });

  it('recovers a forgotten password: the code from the Sent emails page, a new password, signed in', async () => {
    const email = address('forgetful');
    await account(twin(), email);
    const signUpCode = await latestCognitoCode(twin(), email);
    const { context, page, errors } = await newPage();

    await gotoApp(page, `${twin().urls.web}/sign-in`);
    await page.getByRole('link', { name: 'Forgot password?' }).click();
    await page.getByRole('heading', { name: 'Reset your password' }).waitFor();
    await page.getByLabel('Email').fill(email);
    await page.getByRole('button', { name: 'Send the code' }).click();
    await page.getByRole('heading', { name: 'Set a new password' }).waitFor();

    const code = await codeOnSentEmailsPage(twin(), context, email, signUpCode);
    await page.getByLabel('Code').fill(code);
    const save = page.getByRole('button', { name: 'Save and sign in' });
    // The checklist follows the typing; the button waits for a password that meets every rule.
    await page.getByLabel('New password', { exact: true }).fill('short');
    expect(await page.locator('[data-testid="password-rules"] li[data-met="true"]').count()).toBe(1);
    expect(await save.isDisabled()).toBe(true);
    const newPassword = 'Recovered-Passw0rd!';
    await page.getByLabel('New password', { exact: true }).fill(newPassword);
    expect(await page.locator('[data-testid="password-rules"] li[data-met="false"]').count()).toBe(0);
    await save.click();

    await page.waitForURL(/\/client-portal$/, { timeout: 30_000 });
    await page.getByText('Robin Reader').first().waitFor({ timeout: 20_000 });
    // The old password is gone.
    const other = await newPage();
    await signIn(other.page, twin().urls.web, email, PASSWORD);
    await other.page.getByRole('alert').filter({ hasText: SIGN_IN_FAILED_MESSAGE }).waitFor();
    expect(errors).toEqual([]);
  });

  it('signs out everywhere: the portal asks to sign in again and the old refresh token is dead', async () => {
    const email = address('leaving');
    await account(twin(), email);
    const { page, errors } = await newPage();

    await signIn(page, twin().urls.web, email, PASSWORD, '?next=%2Fportal');
    await page.waitForURL(/\/portal$/);
    await page.getByTestId('portal-signed-in').filter({ hasText: 'Robin Reader' }).waitFor();
    const refreshToken = await storedRefreshToken(page);

    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByTestId('portal-create-account').waitFor();
    expect(await page.getByTestId('portal-signed-in').count()).toBe(0);
    expect(await page.getByRole('link', { name: 'Client Portal' }).getAttribute('href')).toBe('/sign-in?next=%2Fclient-portal');

    // The portal itself now sends the visitor to sign in.
    await gotoApp(page, `${twin().urls.web}/client-portal`);
    await page.waitForURL(/\/sign-in\?next=%2Fclient-portal$/);
    await page.getByRole('heading', { name: 'Sign in' }).waitFor();

    // Signed out on every device: the refresh token no longer gives tokens.
    const cognito = cognitoClient(twin());
    await expect(cognito.send(new GetTokensFromRefreshTokenCommand({ ClientId: twin().clientIds.web, RefreshToken: refreshToken }))).rejects.toMatchObject({
      name: 'NotAuthorizedException',
    });
    cognito.destroy();
    expect(errors).toEqual([]);
  });
});

describe('the sign-in pages on the shared twin', () => {
  const twin = useTwin();

  it('lets an invited talent choose their own password in place of the temporary one', async () => {
    const email = address('invited');
    const cognito = cognitoClient(twin());
    await cognito.send(
      new AdminCreateUserCommand({
        UserPoolId: twin().userPoolId,
        Username: email,
        TemporaryPassword: 'Temporary-Passw0rd!',
        MessageAction: 'SUPPRESS',
        UserAttributes: [
          { Name: 'email', Value: email },
          { Name: 'email_verified', Value: 'true' },
          { Name: 'custom:role', Value: 'talent' },
        ],
      }),
    );
    await cognito.send(new AdminAddUserToGroupCommand({ UserPoolId: twin().userPoolId, Username: email, GroupName: 'talent' }));
    cognito.destroy();
    const { page, errors } = await newPage();

    await signIn(page, twin().urls.web, email, 'Temporary-Passw0rd!');
    await page.getByRole('heading', { name: 'Choose a new password' }).waitFor();
    // The heading of the new step takes the focus.
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Choose a new password');
    const save = page.getByRole('button', { name: 'Save and continue' });
    await page.getByLabel('New password', { exact: true }).fill('nouppercase1!');
    expect(await save.isDisabled()).toBe(true);
    await page.getByLabel('New password', { exact: true }).fill('Own-Choice-Passw0rd!');
    await save.click();
    await page.waitForURL(/\/talent-portal$/, { timeout: 30_000 });

    // The new password is the one that works now.
    const again = await newPage();
    await signIn(again.page, twin().urls.web, email, 'Own-Choice-Passw0rd!');
    await again.page.waitForURL(/\/talent-portal$/, { timeout: 30_000 });
    expect(errors).toEqual([]);
  });

  it('offers Google only when the stage configures it, and sends the browser to the pool domain for the code grant', async () => {
    const { context, page } = await newPage();
    await gotoApp(page, `${twin().urls.web}/sign-in`);
    await page.getByRole('heading', { name: 'Sign in' }).waitFor();
    expect(await page.getByTestId('google-sign-in').count()).toBe(0);

    // The same site with Google configured (on AWS the deployment writes these two fields).
    await context.route('**/config.json', async (route) => {
      const res = await route.fetch();
      await route.fulfill({ response: res, json: { ...(await res.json()), googleSignIn: true, oauthDomain: 'auth.humanly.example' } });
    });
    let authorize: URL | undefined;
    await context.route('https://auth.humanly.example/**', async (route) => {
      authorize = new URL(route.request().url());
      await route.fulfill({ status: 200, contentType: 'text/html', body: '<title>Google</title>' });
    });
    await gotoApp(page, `${twin().urls.web}/sign-in`);
    await page.getByRole('button', { name: 'Continue with Google' }).click();
    await page.waitForURL(/auth\.humanly\.example/);
    expect(authorize!.pathname).toBe('/oauth2/authorize');
    expect(Object.fromEntries(authorize!.searchParams)).toMatchObject({
      identity_provider: 'Google',
      redirect_uri: `${twin().urls.web}/client-portal`,
      response_type: 'code',
      scope: 'openid email profile',
      client_id: twin().clientIds.web,
    });
  });

  it('has no serious accessibility problems and works from the keyboard', async () => {
    const { page, errors } = await newPage();
    for (const path of ['/sign-in', '/sign-up', '/confirm-sign-up', '/reset-password', '/portal']) {
      await gotoApp(page, `${twin().urls.web}${path}`);
      await page.locator('h1').first().waitFor();
      expect((await seriousViolations(page)).map((v) => `${path} ${v}`)).toEqual([]);
    }

    // Sign-up by keyboard: the role by arrow keys, the fields by Tab; the checklist follows the typing.
    await gotoApp(page, `${twin().urls.web}/sign-up`);
    await page.getByRole('radio', { name: /Client/ }).focus();
    await page.keyboard.press('ArrowDown');
    expect(await page.getByRole('radio', { name: /Talent/ }).isChecked()).toBe(true);
    await page.keyboard.press('Tab');
    await page.keyboard.type('Kim Keys');
    await page.keyboard.press('Tab');
    await page.keyboard.type(address('keys'));
    await page.keyboard.press('Tab');
    await page.keyboard.type('Keyboard-0nly!');
    expect(await page.locator('[data-testid="password-rules"] li[data-met="false"]').count()).toBe(0);
    expect(await page.getByRole('button', { name: 'Create account' }).isEnabled()).toBe(true);
    expect(errors).toEqual([]);
  });
});

describe('a session on short-lived tokens', () => {
  const LIFETIME = 8;
  const twin = useTwin({ own: true, tokenLifetimeSeconds: LIFETIME });

  it('outlives its tokens: the portal still loads the account through a refreshed token', async () => {
    const email = address('staying');
    await account(twin(), email);
    const { page, errors } = await newPage();
    const refreshes: string[] = [];
    page.on('request', (req) => {
      if (req.headers()['x-amz-target']?.endsWith('.GetTokensFromRefreshToken')) refreshes.push(req.url());
    });

    await signIn(page, twin().urls.web, email, PASSWORD);
    await page.waitForURL(/\/client-portal$/, { timeout: 30_000 });
    await page.getByText('Robin Reader').first().waitFor({ timeout: 20_000 });
    const firstToken = await page.evaluate(() => Object.entries(localStorage).find(([key]) => key.endsWith('.idToken'))?.[1]);
    expect(firstToken).toBeTruthy();

    // Past the lifetime: the first token is refused by the API's authorizer...
    await eventually(async () => (await fetch(`${twin().urls.api}/me`, { headers: { authorization: `Bearer ${firstToken}` } })).status === 401, {
      timeoutMs: (LIFETIME + 30) * 1000,
      what: 'the first token refused once its lifetime is over',
    });

    // ...yet coming back to the portal shows the account, through Amplify's refresh.
    const meAnswers: number[] = [];
    page.on('response', (res) => {
      if (new URL(res.url()).pathname === '/me' && res.request().method() === 'GET') meAnswers.push(res.status());
    });
    await gotoApp(page, `${twin().urls.web}/client-portal`);
    await page.getByText('Robin Reader').first().waitFor({ timeout: 20_000 });
    expect(refreshes.length).toBeGreaterThan(0);
    expect(meAnswers).toContain(200);
    expect(meAnswers).not.toContain(401);
    const secondToken = await page.evaluate(() => Object.entries(localStorage).find(([key]) => key.endsWith('.idToken'))?.[1]);
    expect(secondToken).not.toBe(firstToken);
    expect(errors).toEqual([]);
  });
});
