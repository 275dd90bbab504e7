import type { CustomMessageTriggerEvent, PreSignUpTriggerEvent } from 'aws-lambda';
import { CODE_PLACEHOLDER, USERNAME_PLACEHOLDER } from '../../../functions/accounts/emails';
import { accountMessage } from '../../../functions/accounts/triggers/custom-message/service';
import { handler as preSignUp } from '../../../functions/accounts/triggers/pre-sign-up/handler';

const SITE = 'https://humanly.example';
const CODE_SOURCES = [
  'CustomMessage_SignUp',
  'CustomMessage_ResendCode',
  'CustomMessage_ForgotPassword',
  'CustomMessage_UpdateUserAttribute',
  'CustomMessage_VerifyUserAttribute',
];
const count = (text: string, part: string) => text.split(part).length - 1;

describe('the CustomMessage trigger (Cognito emails)', () => {
  it.each(CODE_SOURCES)('%s: a branded subject and an HTML body with the code placeholder exactly once', (source) => {
    const message = accountMessage(source, SITE)!;
    expect(message.subject).toMatch(/Humanly/);
    expect(message.html).toMatch(/^<!doctype html>/);
    // Cognito replaces the placeholder; a second copy would reach the person as "{####}".
    expect(count(message.html, CODE_PLACEHOLDER)).toBe(1);
    // The layout shared with our other emails.
    expect(message.html).toContain('Ethical AI Starts with You');
  });

  it('gives each occasion its own subject', () => {
    const subjects = CODE_SOURCES.map((s) => accountMessage(s, SITE)!.subject);
    expect(new Set(subjects).size).toBe(subjects.length);
    expect(accountMessage('CustomMessage_ForgotPassword', SITE)!.html).toMatch(/1 hour/);
    expect(accountMessage('CustomMessage_SignUp', SITE)!.html).toMatch(/24 hours/);
  });

  it("a talent's invitation holds the username, the temporary password and the site's sign-in link", () => {
    const message = accountMessage('CustomMessage_AdminCreateUser', `${SITE}/`)!;
    expect(message.subject).toBe('Your Humanly talent account is ready');
    expect(count(message.html, CODE_PLACEHOLDER)).toBe(1);
    expect(count(message.html, USERNAME_PLACEHOLDER)).toBe(1);
    expect(message.html).toContain('href="https://humanly.example/sign-in"');
  });

  it('leaves occasions it does not brand to Cognito', () => {
    expect(accountMessage('CustomMessage_Authentication', SITE)).toBeUndefined();
  });

  it('the handler sets the response from the service, with SITE_URL from its environment', async () => {
    process.env.SITE_URL = SITE;
    const { handler } = await import('../../../functions/accounts/triggers/custom-message/handler');
    const event = {
      triggerSource: 'CustomMessage_AdminCreateUser',
      request: { codeParameter: CODE_PLACEHOLDER, usernameParameter: USERNAME_PLACEHOLDER, userAttributes: {} },
      response: { smsMessage: null, emailMessage: null, emailSubject: null },
    } as unknown as CustomMessageTriggerEvent;
    const out = await handler(event);
    expect(out.response.emailSubject).toBe('Your Humanly talent account is ready');
    expect(out.response.emailMessage).toContain(`${SITE}/sign-in`);
  });
});

describe('pre-sign-up trigger', () => {
  const event = (triggerSource: string, userAttributes: Record<string, string>) =>
    ({ triggerSource, request: { userAttributes }, response: {} }) as unknown as PreSignUpTriggerEvent;

  it("lets a Google user's first sign-in through without a role", async () => {
    const e = event('PreSignUp_ExternalProvider', { email: 'g.user@gmail.example', name: 'G User' });
    await expect(preSignUp(e)).resolves.toBe(e);
  });

  it('still asks a self sign-up for client or talent', async () => {
    await expect(preSignUp(event('PreSignUp_SignUp', { email: 'a@example.com' }))).rejects.toThrow('Choose an account type: client or talent.');
    await expect(preSignUp(event('PreSignUp_SignUp', { email: 'a@example.com', 'custom:role': 'admin' }))).rejects.toThrow(/client or talent/);
  });
});
