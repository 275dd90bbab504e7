import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { Email } from '../../../functions/shared/email-layout';
import { inMemoryIdempotency } from '../../../functions/shared/idempotency';
import type { EmailKind } from '../../../functions/founding/emails/compose';
import { sendApplicationEmail } from '../../../functions/founding/steps/send-application-email/service';
import { EMAIL, ID, application, mockedStore, quiet } from './support';

quiet();

function setup(app = application({ status: 'pending_review', validPhotoCount: 41 })) {
  const m = mockedStore(app);
  const sent: Array<{ to: string; email: Email }> = [];
  const send = jest.fn(async (to: string, email: Email) => {
    sent.push({ to, email });
  });
  const deps = { store: m.store, send, once: inMemoryIdempotency(), reviewersEmail: 'reviewers@humanly.test', siteUrl: 'https://humanly.test', adminUrl: 'https://admin.humanly.test' };
  const call = (kind: EmailKind, extra = {}) => sendApplicationEmail(deps, { applicationId: ID, kind, ...extra });
  return { ...m, sent, send, call };
}

describe('sendApplicationEmail', () => {
  test('confirmation: sent to the applicant, marked sent on the application', async () => {
    const s = setup();
    expect(await s.call('confirmation')).toEqual({ sent: true });
    expect(s.sent).toHaveLength(1);
    expect(s.sent[0].to).toBe(EMAIL);
    expect(s.sent[0].email.text).toContain('15-20 business days');
    const appUpdate = s.inputs(UpdateCommand).find((u) => u.Key.sk === 'APPLICATION');
    expect(appUpdate.ExpressionAttributeNames).toMatchObject({ '#s0': 'confirmationEmail' });
    expect(appUpdate.ExpressionAttributeValues).toMatchObject({ ':s0': 'sent' });
  });

  test('an email already sent is not sent again', async () => {
    const s = setup();
    expect(await s.call('confirmation')).toEqual({ sent: true });
    expect(await s.call('confirmation')).toEqual({ sent: true, skipped: true });
    expect(s.send).toHaveBeenCalledTimes(1);
  });

  test('SES failing: the error is thrown with its name, for the Retry, and nothing is recorded', async () => {
    const s = setup();
    s.send.mockRejectedValueOnce(Object.assign(new Error('Maximum sending rate exceeded.'), { name: 'ThrottlingException' }));
    await expect(s.call('confirmation')).rejects.toMatchObject({ name: 'ThrottlingException' });
    expect(s.inputs(UpdateCommand).find((u) => u.Key.sk === 'APPLICATION')).toBeUndefined();
    // The retry can claim and send.
    expect(await s.call('confirmation')).toEqual({ sent: true });
    expect(s.sent).toHaveLength(1);
  });

  test("rejection sends the review's message to the applicant and never the reviewer's internal note", async () => {
    const s = setup();
    await s.call('rejection', { review: { decision: 'reject', note: 'Internal: looks like stock photos.', messageToApplicant: 'Photos too dark.' } });
    expect(s.sent[0].email.text).toContain('> Photos too dark.');
    expect(s.sent[0].email.text + s.sent[0].email.html).not.toContain('stock photos');
  });

  test('rejection without a message to the applicant: no message block, the internal note stays out', async () => {
    const decision = { decision: 'reject' as const, note: 'Internal only.', decidedBy: 'r@humanly.test', decidedAt: '2026-02-08T10:00:00.000Z' };
    const s = setup(application({ status: 'rejected', decision }));
    await s.call('rejection', { review: decision });
    expect(s.sent[0].email.text).not.toContain('Internal only.');
    expect(s.sent[0].email.text).not.toContain('message from our reviewer');
  });

  test('acceptance after a retry reads the message to the applicant from the stored decision', async () => {
    const decision = { decision: 'accept' as const, note: 'n', messageToApplicant: 'Welcome aboard!', decidedBy: 'r@humanly.test', decidedAt: '2026-02-08T10:00:00.000Z' };
    const s = setup(application({ status: 'accepted', founding: false, royaltyPlan: 'standard-tiers', decision }));
    await s.call('acceptance');
    expect(s.sent[0].email.text).toContain('> Welcome aboard!');
  });

  test('acceptance of founding talent names their spot', async () => {
    const s = setup(application({ founding: true, spotNumber: 3, royaltyPlan: 'founding-35' }));
    await s.call('acceptance');
    expect(s.sent[0].email.text).toContain('founding talent #3 of 30');
  });

  test('invalid: counted reasons from the photo results', async () => {
    const s = setup(
      application({
        status: 'invalid',
        validPhotoCount: 1,
        photoResults: [
          { source: 'k1', accepted: true, index: 0 },
          { source: 'k2', accepted: false, reason: 'not a JPEG or PNG image' },
        ],
      }),
    );
    await s.call('invalid');
    expect(s.sent[0].email.text).toContain('- 1 photo: not a JPEG or PNG image');
    expect(s.sent[0].email.text).not.toContain('k2');
  });

  test('reminder goes to the reviewers each time, naming the wait', async () => {
    const s = setup(application({ status: 'pending_review', reviewWaitingSince: '2026-02-01T10:00:00.000Z' }));
    await s.call('reminder');
    await s.call('reminder');
    expect(s.sent.map((x) => x.to)).toEqual(['reviewers@humanly.test', 'reviewers@humanly.test']);
    expect(s.sent[0].email.subject).toContain('has waited 7 days');
  });

  test('a missing application is ApplicationNotFound (not retried)', async () => {
    const s = setup(null as never);
    await expect(s.call('confirmation')).rejects.toMatchObject({ name: 'ApplicationNotFound' });
  });
});
