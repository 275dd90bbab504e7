import {
  AdminAddUserToGroupCommand,
  AdminCreateUserCommand,
  AdminDeleteUserCommand,
  AdminGetUserCommand,
  CognitoIdentityProviderClient,
} from '@aws-sdk/client-cognito-identity-provider';
import { GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import { Talent } from '../../../events/talent';
import { memoryBucket } from '../../../functions/shared/s3';
import { awaitReview } from '../../../functions/founding/steps/await-review/service';
import { talentStore } from '../../../functions/catalog/store';
import { createTalent, NEW_TALENT_IMAGE, talentIdFor } from '../../../functions/founding/steps/create-talent/service';
import { deletePhotos } from '../../../functions/founding/steps/delete-photos/service';
import { inviteTalent } from '../../../functions/founding/steps/invite-talent/service';
import { recordEmailFailure } from '../../../functions/founding/steps/record-email-failure/service';
import { EMAIL, FOLDER, ID, application, conditionFailed, mockedStore, quiet } from './support';

quiet();

/** The SET assignments of an UpdateCommand input as { attribute: value }. */
function assigned(input: { ExpressionAttributeNames: Record<string, string>; ExpressionAttributeValues: Record<string, unknown> }): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(input.ExpressionAttributeNames)
      .filter(([k]) => k.startsWith('#s'))
      .map(([k, name]) => [name, input.ExpressionAttributeValues[k.replace('#', ':')]]),
  );
}

describe('recordEmailFailure', () => {
  test('marks the email failed on the application and in its history, keeping only the error name', async () => {
    const { store, inputs } = mockedStore(application());
    await recordEmailFailure(store, { applicationId: ID, kind: 'confirmation', error: { Error: 'ThrottlingException', Cause: `{"errorMessage":"to ${EMAIL}"}` } });
    expect(assigned(inputs(UpdateCommand)[0])).toEqual({ confirmationEmail: 'failed', confirmationEmailError: 'ThrottlingException' });
    expect(inputs(PutCommand)[0].Item).toMatchObject({ event: 'email failed', note: 'confirmation: ThrottlingException' });
    expect(JSON.stringify(inputs(PutCommand))).not.toContain(EMAIL);
  });
});

describe('awaitReview', () => {
  test('stores the task token and the time the wait began', async () => {
    const { store, inputs } = mockedStore(application({ status: 'pending_review' }));
    const resume = jest.fn();
    expect(await awaitReview({ store, resume, fail: jest.fn() }, ID, 'token-1')).toEqual({ waiting: true });
    const update = inputs(UpdateCommand)[0];
    expect(assigned(update)).toEqual({ taskToken: 'token-1', status: 'pending_review', reviewWaitingSince: '2026-02-08T10:00:00.000Z' });
    expect(update.ConditionExpression).toContain('attribute_not_exists(decision)');
    expect(resume).not.toHaveBeenCalled();
  });

  test('waiting again after a reminder keeps the original start of the wait', async () => {
    const { store, inputs } = mockedStore(application({ status: 'pending_review', reviewWaitingSince: '2026-02-01T10:00:00.000Z', taskToken: 'old' }));
    await awaitReview({ store, resume: jest.fn(), fail: jest.fn() }, ID, 'token-2');
    expect(assigned(inputs(UpdateCommand)[0])).toMatchObject({ taskToken: 'token-2', reviewWaitingSince: '2026-02-01T10:00:00.000Z' });
    expect(inputs(PutCommand)).toHaveLength(0); // 'waiting for review' is written once
  });

  test('a decision recorded while no token was current resumes the execution at once', async () => {
    const decision = { decision: 'accept' as const, note: '', decidedBy: 'r@humanly.test', decidedAt: '2026-02-08T09:59:59.000Z' };
    const { store, inputs } = mockedStore(application({ status: 'pending_review', decision }));
    const resume = jest.fn();
    expect(await awaitReview({ store, resume, fail: jest.fn() }, ID, 'token-3')).toEqual({ waiting: false });
    expect(resume).toHaveBeenCalledWith('token-3', decision);
    expect(inputs(UpdateCommand)).toHaveLength(0);
  });

  test('decided between our read and our write: resumes too', async () => {
    const decision = { decision: 'reject' as const, note: 'no', decidedBy: 'r@humanly.test', decidedAt: '2026-02-08T10:00:00.000Z' };
    const { store, mock } = mockedStore();
    mock
      .on(GetCommand)
      .resolvesOnce({ Item: application({ status: 'pending_review' }) })
      .resolves({ Item: application({ decision }) });
    mock.on(UpdateCommand).rejects(conditionFailed());
    const resume = jest.fn();
    expect(await awaitReview({ store, resume, fail: jest.fn() }, ID, 'token-4')).toEqual({ waiting: false });
    expect(resume).toHaveBeenCalledWith('token-4', decision);
  });
});

describe('createTalent', () => {
  test('talent ids are slugs of the name plus a suffix from the application id', () => {
    const id = talentIdFor('Zoë', "O'Brien", ID);
    expect(id).toMatch(/^zoe-obrien-[0-9a-f]{6}$/);
    expect(talentIdFor('Zoë', "O'Brien", ID)).toBe(id);
    expect(talentIdFor('Zoë', "O'Brien", 'app_bbbbbbbbbbbbbbbbbbbb')).not.toBe(id);
    expect(talentIdFor('李', '', ID)).toMatch(/^talent-[0-9a-f]{6}$/);
    expect(talentIdFor('A'.repeat(200), '', ID).length).toBeLessThanOrEqual(64);
  });

  test('a founding talent: hidden, founding-35, valid catalog item with the applicant\'s excluded industries and application, written only if new', async () => {
    const { store, doc, inputs } = mockedStore(application({ status: 'pending_review', excludedIndustries: ['politics', 'alcohol'] }));
    const { talentId } = await createTalent({ store, talent: talentStore(doc, 'Talent') }, ID, true);
    const put = inputs(PutCommand).find((p) => p.TableName === 'Talent');
    expect(put.ConditionExpression).toBe('attribute_not_exists(id)');
    const { excludedIndustries, applicationId, ...catalog } = put.Item;
    expect(excludedIndustries).toEqual(['politics', 'alcohol']);
    // Where the talent's email is, for likeness notices.
    expect(applicationId).toBe(ID);
    expect(Talent.parse(catalog)).toMatchObject({ id: talentId, name: 'Ana Lima', status: 'hidden', founding: true, royaltyPlan: 'founding-35' });
    expect(assigned(inputs(UpdateCommand)[0])).toEqual({ talentId, status: 'accepted' });
  });

  test('standard talent are on the tiers', async () => {
    const { store, doc, inputs } = mockedStore(application());
    await createTalent({ store, talent: talentStore(doc, 'Talent') }, ID, false);
    expect(inputs(PutCommand).find((p) => p.TableName === 'Talent').Item).toMatchObject({ founding: false, royaltyPlan: 'standard-tiers' });
  });

  test('idempotent: a recorded talent id is returned; an item our earlier run wrote is kept', async () => {
    const recorded = mockedStore(application({ talentId: 'ana-lima-123456' }));
    expect(await createTalent({ store: recorded.store, talent: talentStore(recorded.doc, 'Talent') }, ID, true)).toEqual({ talentId: 'ana-lima-123456' });
    expect(recorded.inputs(PutCommand)).toHaveLength(0);

    const written = mockedStore(application());
    written.mock.on(PutCommand, { TableName: 'Talent' }).rejects(conditionFailed());
    const earlier = { id: talentIdFor('Ana', 'Lima', ID), name: 'Ana Lima', image: NEW_TALENT_IMAGE, tagline: 'Founding talent', bio: 'Profile coming soon.', generationCount: 0, featured: false, tags: [], samples: [], founding: true, royaltyPlan: 'founding-35', status: 'hidden' };
    written.mock.on(GetCommand, { TableName: 'Talent' }).resolves({ Item: Talent.parse(earlier) });
    const { talentId } = await createTalent({ store: written.store, talent: talentStore(written.doc, 'Talent') }, ID, true);
    expect(talentId).toBe(talentIdFor('Ana', 'Lima', ID));
  });
});

describe('inviteTalent', () => {
  const cognito = new CognitoIdentityProviderClient({ region: 'us-east-1' });
  const idp = mockClient(cognito);
  beforeEach(() => {
    idp.reset();
    idp.onAnyCommand().resolves({});
  });

  test('creates the account with role talent (Cognito emails the invitation) and adds it to the talent group', async () => {
    const { store, inputs } = mockedStore(application());
    expect(await inviteTalent({ store, cognito, userPoolId: 'pool-1' }, ID, 'ana-lima-1')).toEqual({ invited: true, existingUser: false });
    expect(idp.commandCalls(AdminCreateUserCommand)[0].args[0].input).toMatchObject({
      UserPoolId: 'pool-1',
      Username: EMAIL,
      DesiredDeliveryMediums: ['EMAIL'],
      UserAttributes: expect.arrayContaining([
        { Name: 'email', Value: EMAIL },
        { Name: 'email_verified', Value: 'true' },
        { Name: 'custom:role', Value: 'talent' },
      ]),
    });
    expect(idp.commandCalls(AdminAddUserToGroupCommand)[0].args[0].input).toEqual({ UserPoolId: 'pool-1', Username: EMAIL, GroupName: 'talent' });
    expect(Object.keys(assigned(inputs(UpdateCommand)[0]))).toEqual(['invitedAt']);
  });

  test('someone with an account already is added to the talent group', async () => {
    const { store } = mockedStore(application());
    idp.on(AdminCreateUserCommand).rejects(Object.assign(new Error('exists'), { name: 'UsernameExistsException' }));
    expect(await inviteTalent({ store, cognito, userPoolId: 'pool-1' }, ID, 'ana-lima-1')).toEqual({ invited: true, existingUser: true });
    expect(idp.commandCalls(AdminAddUserToGroupCommand)).toHaveLength(1);
  });

  test("an unconfirmed sign-up holding the address (a squatter's) is removed and the invitation is sent in its place", async () => {
    const { store } = mockedStore(application());
    idp.on(AdminCreateUserCommand).rejectsOnce(Object.assign(new Error('exists'), { name: 'UsernameExistsException' })).resolves({});
    idp.on(AdminGetUserCommand).resolves({ Username: 'squatter-sub', UserStatus: 'UNCONFIRMED' });
    expect(await inviteTalent({ store, cognito, userPoolId: 'pool-1' }, ID, 'ana-lima-1')).toEqual({ invited: true, existingUser: false });
    expect(idp.commandCalls(AdminDeleteUserCommand).map((c) => c.args[0].input)).toEqual([{ UserPoolId: 'pool-1', Username: 'squatter-sub' }]);
    // Created twice: refused, then created (Cognito mails the invitation) once the squatter is gone.
    expect(idp.commandCalls(AdminCreateUserCommand)).toHaveLength(2);
    expect(idp.commandCalls(AdminAddUserToGroupCommand)).toHaveLength(1);
  });

  test('a confirmed account or a pending invitation under the address is kept', async () => {
    for (const status of ['CONFIRMED', 'FORCE_CHANGE_PASSWORD'] as const) {
      idp.reset();
      idp.onAnyCommand().resolves({});
      const { store } = mockedStore(application());
      idp.on(AdminCreateUserCommand).rejects(Object.assign(new Error('exists'), { name: 'UsernameExistsException' }));
      idp.on(AdminGetUserCommand).resolves({ Username: EMAIL, UserStatus: status });
      expect(await inviteTalent({ store, cognito, userPoolId: 'pool-1' }, ID, 'ana-lima-1')).toEqual({ invited: true, existingUser: true });
      expect(idp.commandCalls(AdminDeleteUserCommand)).toHaveLength(0);
    }
  });

  test('other Cognito errors are thrown for the Retry', async () => {
    const { store } = mockedStore(application());
    idp.on(AdminCreateUserCommand).rejects(Object.assign(new Error('slow down'), { name: 'TooManyRequestsException' }));
    await expect(inviteTalent({ store, cognito, userPoolId: 'pool-1' }, ID, 't')).rejects.toMatchObject({ name: 'TooManyRequestsException' });
  });
});

describe('deletePhotos', () => {
  test("deletes the application's stored photos and pending leftovers, nobody else's", async () => {
    const storage = memoryBucket();
    const own = [`applications/${ID}/photos/0.jpg`, `applications/${ID}/thumbs/0.jpg`, `pending/${FOLDER}/1.jpg`];
    const others = ['applications/app_bbbbbbbbbbbbbbbbbbbb/photos/0.jpg', 'pending/fedcba9876543210fedcba9876543210/1.jpg'];
    for (const k of [...own, ...others]) storage.objects.set(k, { body: Buffer.from('x') });
    const { store, inputs } = mockedStore(application({ imagePaths: [`pending/${FOLDER}/1.jpg`, 'pending/fedcba9876543210fedcba9876543210/1.jpg'] }));

    expect(await deletePhotos({ store, storage }, ID)).toEqual({ deleted: 3 });
    expect([...storage.objects.keys()].sort()).toEqual(others.sort());
    expect(Object.keys(assigned(inputs(UpdateCommand)[0]))).toEqual(['photosDeletedAt']);
    // Again: nothing left, nothing fails.
    expect(await deletePhotos({ store, storage }, ID)).toEqual({ deleted: 1 }); // the listed pending key, already gone
  });
});
