import { SESv2Client, SendEmailCommand } from '@aws-sdk/client-sesv2';
import { startSes, type SesEmulator } from '../../../infra/local/emulators/ses';
import { TWIN_CREDENTIALS, TWIN_REGION } from '../../../infra/local/emulators/ports';

jest.setTimeout(30_000);

describe('SES (aws-ses-v2-local)', () => {
  let ses: SesEmulator;
  let client: SESv2Client;

  beforeAll(async () => {
    ses = await startSes();
    client = new SESv2Client({ endpoint: ses.endpoint, region: TWIN_REGION, credentials: { ...TWIN_CREDENTIALS } });
  });
  afterAll(async () => {
    client?.destroy();
    await ses?.stop();
  });

  test('mail sent with the v2 SDK shows up in listMessages, normalised', async () => {
    expect(await ses.listMessages()).toEqual([]);
    const sent = await client.send(
      new SendEmailCommand({
        FromEmailAddress: 'Marketplace <no-reply@marketplace.example>',
        Destination: { ToAddresses: ['talent@example.com'], CcAddresses: ['ops@example.com'] },
        ReplyToAddresses: ['support@marketplace.example'],
        Content: {
          Simple: {
            Subject: { Data: 'You are on the waitlist' },
            Body: { Text: { Data: 'Position 12' }, Html: { Data: '<p>Position <b>12</b></p>' } },
          },
        },
      }),
    );
    expect(sent.MessageId).toBeTruthy();

    const messages = await ses.listMessages();
    expect(messages).toEqual([
      {
        messageId: sent.MessageId,
        from: 'Marketplace <no-reply@marketplace.example>',
        to: ['talent@example.com'],
        cc: ['ops@example.com'],
        bcc: [],
        replyTo: ['support@marketplace.example'],
        subject: 'You are on the waitlist',
        text: 'Position 12',
        html: '<p>Position <b>12</b></p>',
        attachments: [],
        at: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      },
    ]);
    expect(Date.now() - Date.parse(messages[0].at)).toBeLessThan(60_000);

    await ses.clear();
    expect(await ses.listMessages()).toEqual([]);
  });

  test('the mail viewer is served at viewerUrl', async () => {
    expect(ses.viewerUrl).toBe(`${ses.endpoint}/`);
    const page = await fetch(ses.viewerUrl);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toContain('text/html');
    expect(await page.text()).toContain('/store');
  });
});
