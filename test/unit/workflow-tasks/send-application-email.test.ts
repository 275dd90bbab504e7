import { DeleteCommand, GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { Email } from '../../../functions/integrations/email/render';
import { sendApplicationEmail, type EmailKind } from '../../../functions/workflow/send-application-email/service';
import { EMAIL, ID, application, conditionFailed, mockedStore, quiet } from './support';

quiet();

function setup(app = application({ status: 'pending_review', validPhotoCount: 41 })) {
  const m = mockedStore(app);
  const sent: Array<{ to: string; email: Email }> = [];
  const send = jest.fn(async (to: string, email: Email) => {
    sent.push({ to, email });
  });
  const deps = { store: m.store, send, reviewersEmail: 'reviewers@humanly.test', siteUrl: 'https://humanly.test', adminUrl: 'https://admin.humanly.test' };
  const call = (kind: EmailKind, extra = {}) => sendApplicationEmail(deps, { applicationId: ID, kind, ...extra });
  return { ...m, sent, send, call };
}

describe('sendApplicationEmail', () => {
  test('confirmation: claimed, sent to the applicant, marked sent on the application', async () => {
    const s = setup();
    expect(await s.call('confirmation')).toEqual({ sent: true });
    expect(s.sent).toHaveLength(1);
    expect(s.sent[0].to).toBe(EMAIL);
    expect(s.sent[0].email.text).toContain('15-20 business days');
    expect(s.inputs(PutCommand)[0]).toMatchObject({ Item: { pk: `APP#${ID}`, sk: 'SENT#confirmation', state: 'sending' }, ConditionExpression: expect.stringContaining('attribute_not_exists(pk)') });
    const appUpdate = s.inputs(UpdateCommand).find((u) => u.Key.sk === 'APPLICATION');
    expect(appUpdate.ExpressionAttributeNames).toMatchObject({ '#s0': 'confirmationEmail' });
    expect(appUpdate.ExpressionAttributeValues).toMatchObject({ ':s0': 'sent' });
  });

  test('an email already sent is not sent again', async () => {
    const s = setup();
    s.mock.on(PutCommand).rejects(conditionFailed());
    s.mock.on(GetCommand, { Key: { pk: `APP#${ID}`, sk: 'SENT#confirmation' } }).resolves({ Item: { state: 'sent' } });
    expect(await s.call('confirmation')).toEqual({ sent: true, skipped: true });
    expect(s.send).not.toHaveBeenCalled();
  });

  test('SES failing: the claim is released and the error thrown with its name, for the Retry', async () => {
    const s = setup();
    s.send.mockRejectedValueOnce(Object.assign(new Error('Maximum sending rate exceeded.'), { name: 'ThrottlingException' }));
    await expect(s.call('confirmation')).rejects.toMatchObject({ name: 'ThrottlingException' });
    expect(s.inputs(DeleteCommand)).toEqual([expect.objectContaining({ Key: { pk: `APP#${ID}`, sk: 'SENT#confirmation' } })]);
    expect(s.inputs(UpdateCommand).find((u) => u.Key.sk === 'APPLICATION')).toBeUndefined();
    // The retry can claim and send.
    expect(await s.call('confirmation')).toEqual({ sent: true });
    expect(s.sent).toHaveLength(1);
  });

  test("rejection uses the reviewer's note from the review", async () => {
    const s = setup();
    await s.call('rejection', { review: { decision: 'reject', note: 'Photos too dark.' } });
    expect(s.sent[0].email.text).toContain('> Photos too dark.');
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
    expect(s.inputs(PutCommand).filter((p) => String(p.Item.sk).startsWith('SENT#'))).toHaveLength(0);
  });

  test('a missing application is ApplicationNotFound (not retried)', async () => {
    const s = setup(null as any);
    await expect(s.call('confirmation')).rejects.toMatchObject({ name: 'ApplicationNotFound' });
  });
});
