import { ConfirmSignUpCommand, SignUpCommand } from '@aws-sdk/client-cognito-identity-provider';
import { gotoApp, onOwnNetwork, useBrowser } from '../support/browser';
import { cognitoMails, latestCognitoCode } from '../support/cognito-mail';
import { eventually } from '../support/eventually';
import { fileMarker } from '../support/marker';
import { cognitoClient, useTwin } from '../support/twin';

// /sign-up answers the same whether or not the address has an account (docs/product.md#sign-up-conflicts,
// decision 040): the page goes to the code step either way, and the owner of the account gets an
// email that says so instead of a code.
jest.setTimeout(120_000);
const twin = useTwin();
const marker = fileMarker('suc');
const PASSWORD = 'Conflict-Passw0rd!';
const browser = useBrowser();

/** Signs up on the page; what the person sees next: the page's path and its introduction. */
async function signUpOnPage(email: string): Promise<{ path: string; intro: string; alerts: string[] }> {
  const context = await browser().newContext({ viewport: { width: 1280, height: 900 } });
  await onOwnNetwork(context, twin().urls.cognito);
  const page = await context.newPage();
  try {
    await gotoApp(page, `${twin().urls.web}/sign-up`);
    await page.getByTestId('role-client').click();
    await page.getByLabel('Full name').fill('Sam Someone');
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
    await page.getByRole('button', { name: 'Create account' }).click();
    const confirm = page.getByTestId('confirm-sign-up-page');
    // The code step, or the page's error: a refusal fails the test with what the page said, and
    // a slow answer (the API and Cognito on a busy machine) is waited for, not timed.
    const refused = page.getByRole('alert').filter({ hasText: /\S/ });
    await confirm.or(refused).first().waitFor({ timeout: 60_000 });
    if (!(await confirm.isVisible())) throw new Error(`the sign-up page refused ${email}: ${(await refused.allInnerTexts()).join(' | ')}`);
    const intro = (await confirm.getByText(/We sent a 6-digit code to/).innerText()).replace(email, '<email>');
    return { path: new URL(page.url()).pathname, intro, alerts: await page.getByRole('alert').allInnerTexts() };
  } finally {
    await context.close();
  }
}

it('shows the code step for an address with an account exactly as for a new one, and emails its owner instead of a code', async () => {
  const owner = `owner.${marker}@people.example`;
  const cognito = cognitoClient(twin());
  await cognito.send(
    new SignUpCommand({
      ClientId: twin().clientIds.web,
      Username: owner,
      Password: PASSWORD,
      UserAttributes: [
        { Name: 'email', Value: owner },
        { Name: 'name', Value: 'Owen Owner' },
        { Name: 'custom:role', Value: 'client' },
      ],
    }),
  );
  await cognito.send(new ConfirmSignUpCommand({ ClientId: twin().clientIds.web, Username: owner, ConfirmationCode: await latestCognitoCode(twin(), owner) }));
  const codesBefore = (await cognitoMails(twin(), owner)).length;

  const forNew = await signUpOnPage(`new.${marker}@people.example`);
  const forOwner = await signUpOnPage(owner);
  expect(forNew).toEqual({ path: '/confirm-sign-up', intro: 'We sent a 6-digit code to <email>. Enter it to finish creating your account.', alerts: expect.any(Array) });
  expect(forOwner).toEqual(forNew);
  expect(forOwner.alerts.filter((a) => a.trim())).toEqual([]);

  await eventually(async () => (await twin().emails()).some((m) => m.to.includes(owner) && m.subject === 'You already have a Humanly account'), {
    what: `the "already have an account" email to ${owner}`,
  });
  expect(await cognitoMails(twin(), owner)).toHaveLength(codesBefore);
});
