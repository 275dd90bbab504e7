// Failure paths around the review workflow: a step recorded as failed, an admin's retry, and a
// decision that keeps its task token until the workflow has been resumed (decision 017).
import { GetCommand, PutCommand, TransactWriteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { ApplicationDecisionRecord } from '../../../events/founding';
import { RESUME_FAILED_MESSAGE, decide } from '../../../functions/founding/routes/decide-application/service';
import { NOT_FAILED_MESSAGE, START_FAILED_MESSAGE, retryApplication, type ResumeInput } from '../../../functions/founding/routes/retry-application/service';
import { memoryBucket } from '../../../functions/shared/s3';
import { DUPLICATE_EXECUTION, awaitReview } from '../../../functions/founding/steps/await-review/service';
import { markPhotosForDeletion } from '../../../functions/founding/steps/delete-photos/service';
import { recordFailure } from '../../../functions/founding/steps/record-failure/service';
import { EMAIL, ID, application, conditionFailed, mockedStore, quiet } from './support';

quiet();
const APP_KEY = { pk: `APP#${ID}`, sk: 'APPLICATION' };
const REVIEWER = 'reviewer@humanly.test';

describe('recordFailure', () => {
  test('sets status failed with the step and the error name only, keeps the status it had, and writes history', async () => {
    const m = mockedStore(application({ status: 'accepted' }));
    await recordFailure(m.store, {
      applicationId: ID,
      step: 'InviteTalent',
      error: { Error: 'InvalidParameterException', Cause: `{"errorMessage":"bad address ${EMAIL}"}` },
    });
    const update = m.inputs(UpdateCommand)[0];
    const set = Object.fromEntries(Object.entries(update.ExpressionAttributeNames).map(([k, field]) => [field, update.ExpressionAttributeValues[`:${k.slice(1)}`]]));
    expect(set).toEqual({
      status: 'failed',
      failure: { step: 'InviteTalent', error: 'InvalidParameterException', at: '2026-02-08T10:00:00.000Z' },
      statusBeforeFailure: 'accepted',
    });
    const history = m.inputs(PutCommand)[0].Item;
    expect(history).toMatchObject({ event: 'step failed', note: 'InviteTalent: InvalidParameterException' });
    expect(JSON.stringify([update, history])).not.toContain(EMAIL);
  });

  test('a second failure keeps the status from before the first', async () => {
    const m = mockedStore(application({ status: 'failed', statusBeforeFailure: 'rejected' }));
    await recordFailure(m.store, { applicationId: ID, step: 'DeletePhotos', error: { Error: 'AccessDenied' } });
    expect(Object.values(m.inputs(UpdateCommand)[0].ExpressionAttributeValues)).toContain('rejected');
  });
});

describe('retryApplication', () => {
  const failedAt = '2026-02-08T09:00:00.000Z';
  const setup = (app = application({ status: 'failed', statusBeforeFailure: 'accepted', founding: true, failure: { step: 'CreateTalent', error: 'InternalServerError', at: failedAt } })) => {
    const m = mockedStore(app);
    const starts: Array<{ name: string; input: ResumeInput }> = [];
    const start = jest.fn(async (name: string, input: ResumeInput) => {
      starts.push({ name, input });
    });
    return { ...m, starts, start, call: () => retryApplication({ store: m.store, start }, ID, REVIEWER) };
  };

  test('takes the application out of failed with one conditional update, then starts an execution at the failed step, named for the retry', async () => {
    const s = setup();
    expect(await s.call()).toEqual({ id: ID, status: 'accepted', resumedAt: 'CreateTalent' });
    const update = s.inputs(UpdateCommand)[0];
    expect(update.ConditionExpression).toContain('#st = :failed AND failure.#at = :at');
    expect(update.ExpressionAttributeValues).toMatchObject({ ':failed': 'failed', ':at': failedAt });
    expect(update.UpdateExpression).toMatch(/REMOVE #r0/);
    expect(s.starts).toEqual([{ name: `${ID}-retry-1`, input: { applicationId: ID, resumeAt: 'CreateTalent', allocation: { founding: true } } }]);
    expect(s.inputs(PutCommand)[0].Item).toMatchObject({ event: 'retried', by: REVIEWER, note: 'resumed at CreateTalent' });
  });

  test('InviteTalent resumes with the recorded talent id; a second retry gets the next execution name', async () => {
    const s = setup(
      application({ status: 'failed', statusBeforeFailure: 'accepted', founding: false, talentId: 'ana-lima-1a2b3c', retryCount: 1, failure: { step: 'InviteTalent', error: 'X', at: failedAt } }),
    );
    await s.call();
    expect(s.starts[0]).toEqual({ name: `${ID}-retry-2`, input: { applicationId: ID, resumeAt: 'InviteTalent', allocation: { founding: false }, talent: { talentId: 'ana-lima-1a2b3c' } } });
  });

  test('an application that has not failed is refused with 409, and nothing starts', async () => {
    const s = setup(application({ status: 'pending_review' }));
    await expect(s.call()).rejects.toMatchObject({ status: 409, message: NOT_FAILED_MESSAGE });
    expect(s.start).not.toHaveBeenCalled();
  });

  test('two retries at once: the one whose conditional update loses gets 409 and starts nothing', async () => {
    const s = setup();
    s.mock.on(UpdateCommand).rejects(conditionFailed());
    await expect(s.call()).rejects.toMatchObject({ status: 409 });
    expect(s.start).not.toHaveBeenCalled();
  });

  test('an execution that cannot be started puts the application back to failed and answers 503', async () => {
    const s = setup();
    s.start.mockRejectedValueOnce(Object.assign(new Error('throttled'), { name: 'ThrottlingException' }));
    await expect(s.call()).rejects.toMatchObject({ status: 503, message: START_FAILED_MESSAGE });
    const restore = s.inputs(UpdateCommand)[1];
    expect(Object.values(restore.ExpressionAttributeValues)).toEqual(expect.arrayContaining(['failed', { step: 'CreateTalent', error: 'InternalServerError', at: failedAt }, 0]));
  });

  test('an unknown id is 404', async () => {
    const s = setup();
    await expect(retryApplication({ store: s.store, start: s.start }, 'app_unknownunknownunknow', REVIEWER)).rejects.toMatchObject({ status: 404 });
  });
});

describe('decide keeps the task token until the workflow is resumed', () => {
  const waiting = application({ status: 'pending_review', taskToken: 'token-1' });
  const setup = (app = waiting) => {
    const m = mockedStore(app);
    const resume = jest.fn(async (_token: string, _output: ApplicationDecisionRecord) => true);
    const deps = { store: m.store, resume, publish: jest.fn(async () => undefined), sleep: async () => undefined };
    return { ...m, resume, deps, call: (decision: 'accept' | 'reject' = 'reject') => decide(deps, ID, { decision, note: 'internal', messageToApplicant: 'Thanks!' }, REVIEWER) };
  };
  const transient = () => Object.assign(new Error('socket hang up'), { name: 'TimeoutError' });
  const tokenRemovals = (s: ReturnType<typeof setup>) => s.inputs(UpdateCommand).filter((u) => /REMOVE/.test(u.UpdateExpression));

  test('the decision transaction records the decision and the message to the applicant without removing the token', async () => {
    const s = setup();
    await s.call();
    const update = s.inputs(TransactWriteCommand)[0].TransactItems[0].Update;
    expect(update.UpdateExpression).not.toMatch(/REMOVE/);
    expect(update.ExpressionAttributeValues[':decision']).toMatchObject({ decision: 'reject', note: 'internal', messageToApplicant: 'Thanks!' });
    // Removed once the workflow has the decision, only if it is still the same token.
    expect(tokenRemovals(s)).toHaveLength(1);
    expect(tokenRemovals(s)[0]).toMatchObject({ ConditionExpression: expect.stringContaining('taskToken = :token'), ExpressionAttributeValues: { ':token': 'token-1' } });
  });

  test('a resume failing for a moment is tried again before giving up', async () => {
    const s = setup();
    s.resume.mockRejectedValueOnce(transient()).mockRejectedValueOnce(transient());
    expect(await s.call()).toMatchObject({ id: ID, status: 'rejected' });
    expect(s.resume).toHaveBeenCalledTimes(3);
    expect(s.resume.mock.calls.map((c) => c[0])).toEqual(['token-1', 'token-1', 'token-1']);
    expect(tokenRemovals(s)).toHaveLength(1);
  });

  test('a resume that keeps failing answers 503 with the token kept; the same decision sent again resumes with it', async () => {
    const s = setup();
    s.resume.mockRejectedValue(transient());
    await expect(s.call()).rejects.toMatchObject({ status: 503, message: RESUME_FAILED_MESSAGE });
    expect(tokenRemovals(s)).toHaveLength(0);

    // The application as the transaction left it: decided, token still there.
    const recorded = s.inputs(TransactWriteCommand)[0].TransactItems[0].Update.ExpressionAttributeValues[':decision'];
    const again = setup(application({ status: 'rejected', taskToken: 'token-1', decision: recorded }));
    expect(await again.call('reject')).toEqual({ id: ID, status: 'rejected', decision: recorded });
    expect(again.resume).toHaveBeenCalledWith('token-1', recorded);
    expect(again.inputs(TransactWriteCommand)).toHaveLength(0);
    expect(tokenRemovals(again)).toHaveLength(1);
    // Another decision is still refused.
    await expect(setup(application({ status: 'rejected', taskToken: 'token-1', decision: recorded })).call('accept')).rejects.toMatchObject({ status: 409 });
  });

  test('a stale token (the wait re-armed after a reminder) is not an error: the re-armed step resumes with the recorded decision', async () => {
    const s = setup();
    // resumeTask's answer for a spent token.
    s.resume.mockResolvedValueOnce(false);
    await expect(s.call()).resolves.toMatchObject({ status: 'rejected' });
    expect(s.resume).toHaveBeenCalledTimes(1);
  });

  test('a decided application whose workflow was resumed (no token) gets 409', async () => {
    const s = setup(application({ status: 'rejected', decision: { decision: 'reject', note: '', decidedBy: REVIEWER, decidedAt: '2026-02-08T10:00:00.000Z' } }));
    await expect(s.call('reject')).rejects.toMatchObject({ status: 409 });
    expect(s.resume).not.toHaveBeenCalled();
  });
});

describe('markPhotosForDeletion', () => {
  /** An application without an ID verification never calls Stripe. */
  const noStripe = () => Promise.reject(new Error('Stripe is not called without a verification'));

  test('tags every stored photo and thumbnail of the application retention=delete, and records it once', async () => {
    const m = mockedStore(application({ status: 'rejected' }));
    const storage = memoryBucket();
    for (const key of [`applications/${ID}/photos/0.jpg`, `applications/${ID}/thumbs/0.jpg`, 'applications/app_otherotherotherother/photos/0.jpg']) {
      await storage.write(key, Buffer.from('x'), 'image/jpeg');
    }
    expect(await markPhotosForDeletion({ store: m.store, storage, stripe: noStripe }, ID)).toEqual({ marked: 2 });
    expect(storage.objects.get(`applications/${ID}/photos/0.jpg`)!.tags).toEqual({ retention: 'delete' });
    expect(storage.objects.get(`applications/${ID}/thumbs/0.jpg`)!.tags).toEqual({ retention: 'delete' });
    expect(storage.objects.get('applications/app_otherotherotherother/photos/0.jpg')!.tags).toBeUndefined();
    expect(m.inputs(PutCommand)[0].Item).toMatchObject({ event: 'photos marked for deletion' });
    expect(m.inputs(GetCommand)[0].Key).toEqual(APP_KEY);
  });
});

describe('awaitReview: the review belongs to one execution', () => {
  const call = (app: ReturnType<typeof application>, execution: string) => {
    const m = mockedStore(app);
    const resume = jest.fn(async () => undefined);
    const fail = jest.fn(async () => undefined);
    return { ...m, resume, fail, result: awaitReview({ store: m.store, resume, fail }, ID, 'token-new', execution) };
  };

  test('the first execution to wait claims the review with a conditional write', async () => {
    const c = call(application({ status: 'pending_review' }), 'exec-1');
    expect(await c.result).toEqual({ waiting: true });
    const update = c.inputs(UpdateCommand)[0];
    expect(update.ConditionExpression).toContain('attribute_not_exists(reviewExecution) OR reviewExecution = :execution');
    expect(update.ExpressionAttributeValues).toMatchObject({ ':execution': 'exec-1' });
    expect(Object.values(update.ExpressionAttributeValues)).toContain('token-new');
  });

  test('a second execution never replaces the owner\'s token: its wait ends with DuplicateExecution', async () => {
    const c = call(application({ status: 'pending_review', taskToken: 'token-owner', reviewExecution: 'exec-1' }), 'exec-2');
    expect(await c.result).toEqual({ waiting: false });
    expect(c.fail).toHaveBeenCalledWith('token-new', DUPLICATE_EXECUTION, expect.any(String));
    expect(c.inputs(UpdateCommand)).toHaveLength(0);
    expect(c.resume).not.toHaveBeenCalled();
  });

  test('the owner waiting again after a reminder replaces its own token', async () => {
    const c = call(application({ status: 'pending_review', taskToken: 'token-old', reviewExecution: 'exec-1', reviewWaitingSince: '2026-02-01T10:00:00.000Z' }), 'exec-1');
    expect(await c.result).toEqual({ waiting: true });
    expect(Object.values(c.inputs(UpdateCommand)[0].ExpressionAttributeValues)).toContain('token-new');
  });

  test('claimed by another execution between our read and our write: ends as a duplicate', async () => {
    const m = mockedStore();
    m.mock
      .on(GetCommand)
      .resolvesOnce({ Item: application({ status: 'pending_review' }) })
      .resolves({ Item: application({ status: 'pending_review', reviewExecution: 'exec-1', taskToken: 'token-owner' }) });
    m.mock.on(UpdateCommand).rejects(conditionFailed());
    const fail = jest.fn(async () => undefined);
    expect(await awaitReview({ store: m.store, resume: jest.fn(), fail }, ID, 'token-new', 'exec-2')).toEqual({ waiting: false });
    expect(fail).toHaveBeenCalledWith('token-new', DUPLICATE_EXECUTION, expect.any(String));
  });

  test("a retry resuming before the review names its execution the review's owner", async () => {
    const m = mockedStore(application({ status: 'failed', statusBeforeFailure: 'pending_review', reviewExecution: 'exec-1', failure: { step: 'AwaitReview', error: 'X', at: 'T' } }));
    await retryApplication({ store: m.store, start: jest.fn(async () => undefined) }, ID, REVIEWER);
    expect(Object.values(m.inputs(UpdateCommand)[0].ExpressionAttributeValues)).toContain(`${ID}-retry-1`);
  });
});
