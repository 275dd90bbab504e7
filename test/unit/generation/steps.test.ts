// The generation workflow's decisions without AWS: the policy check's order, how a failure
// becomes a code and a message, the license id and XMP written into a file and what a credit is
// worth (the delivery step's bookkeeping: deliver-images.test.ts).
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, TransactWriteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import sharp from 'sharp';
import {
  GENERATION_CANCELED_MESSAGE,
  GENERATION_ERROR_MESSAGE,
  LICENSE_ID_PATTERN,
  PREDICTION_FAILED_MESSAGE,
  TALENT_UNDER_CONTRACT_MESSAGE,
  TALENT_NOT_CONFIGURED_MESSAGE,
  TALENT_PAUSED_MESSAGE,
  TALENT_REMOVED_MESSAGE,
  TALENT_UNAVAILABLE_MESSAGE,
  TIMED_OUT_MESSAGE,
  excludedIndustryMessage,
} from '../../../events/generation-values';
import { creditValueMicros } from '../../../events/plans';
import type { Talent } from '../../../events/talent';
import { policyRefusal } from '../../../functions/generation/steps/check-policy/service';
import { licenseIdOf } from '../../../functions/generation/steps/deliver-images/service';
import { licenseXmp } from '../../../functions/generation/steps/deliver-images/xmp';
import { failureOf } from '../../../functions/generation/steps/record-failure/service';
import { generationStore } from '../../../functions/generation/store';

const NOW = new Date('2026-03-10T12:00:00.000Z');
const talent = { id: 'maya-chen', name: 'Maya Chen', status: 'active' } as Talent;
const generation = { accountId: 'acc-1', prompt: 'a ceramicist in her studio' };
const configured = { generation: { model: 'humanly-preview/maya-chen', triggerWord: 'MAYA' } };

describe('policy check', () => {
  it('allows an active, configured talent and refuses in a fixed order, each with its message', () => {
    expect(policyRefusal({ talent, controls: configured }, generation, NOW)).toBeUndefined();
    expect(policyRefusal(undefined, generation, NOW)).toBe(TALENT_UNAVAILABLE_MESSAGE);
    expect(policyRefusal({ talent: { ...talent, status: 'hidden' } as Talent, controls: configured }, generation, NOW)).toBe(TALENT_UNAVAILABLE_MESSAGE);
    // Removal wins over everything else a removed talent may also have.
    expect(policyRefusal({ talent: { ...talent, status: 'hidden' } as Talent, controls: { ...configured, removedAt: '2026-01-01T00:00:00.000Z', paused: true } }, generation, NOW)).toBe(TALENT_REMOVED_MESSAGE);
    expect(policyRefusal({ talent, controls: { ...configured, paused: true } }, generation, NOW)).toBe(TALENT_PAUSED_MESSAGE);
    expect(policyRefusal({ talent, controls: {} }, generation, NOW)).toBe(TALENT_NOT_CONFIGURED_MESSAGE);
  });

  it('an exclusive contract refuses other clients until it ends, never its own client', () => {
    const underContract = (accountId: string, until: string) => ({ talent, controls: { ...configured, frozen: { accountId, until } } });
    expect(policyRefusal(underContract('brand-x', '2026-06-01T00:00:00.000Z'), generation, NOW)).toBe(TALENT_UNDER_CONTRACT_MESSAGE);
    expect(policyRefusal(underContract('acc-1', '2026-06-01T00:00:00.000Z'), generation, NOW)).toBeUndefined();
    expect(policyRefusal(underContract('brand-x', '2026-03-01T00:00:00.000Z'), generation, NOW)).toBeUndefined();
  });

  it('names the excluded industry the prompt falls within', () => {
    const controls = { ...configured, excludedIndustries: ['religion' as const, 'alcohol' as const] };
    expect(policyRefusal({ talent, controls }, { ...generation, prompt: 'Friends sharing a Beer on a rooftop' }, NOW)).toBe(excludedIndustryMessage('alcohol'));
    expect(excludedIndustryMessage('alcohol')).toContain('alcohol');
    expect(policyRefusal({ talent, controls }, { ...generation, prompt: 'a quiet chapel at dawn' }, NOW)).toBe(excludedIndustryMessage('religion'));
    expect(policyRefusal({ talent, controls }, { ...generation, prompt: 'an election campaign rally' }, NOW)).toBeUndefined();
  });
});

describe('failure record', () => {
  const cause = (errorType: string, errorMessage: string) => JSON.stringify({ errorType, errorMessage, trace: [] });

  it('keeps a refusal\'s own message and maps its name to the code', () => {
    expect(failureOf({ generationId: 'g', error: { Error: 'InsufficientCredits', Cause: cause('InsufficientCredits', 'Not enough credits: this needs 4 and your balance is 1.') } })).toEqual({
      status: 'failed',
      code: 'insufficient-credits',
      message: 'Not enough credits: this needs 4 and your balance is 1.',
      detail: 'InsufficientCredits',
    });
    expect(failureOf({ generationId: 'g', error: { Error: 'PolicyRefused', Cause: cause('PolicyRefused', TALENT_PAUSED_MESSAGE) } })).toMatchObject({ code: 'policy', message: TALENT_PAUSED_MESSAGE });
    expect(failureOf({ generationId: 'g', error: { Error: 'PredictionFailed', Cause: 'not json' } })).toMatchObject({ code: 'prediction-failed', message: PREDICTION_FAILED_MESSAGE });
  });

  it('never shows another error\'s message (it may quote data): a general message, its name in the steps only', () => {
    const f = failureOf({ generationId: 'g', error: { Error: 'AccessDeniedException', Cause: cause('AccessDeniedException', 'denied for ana.lima@example.com') } });
    expect(f).toEqual({ status: 'failed', code: 'error', message: GENERATION_ERROR_MESSAGE, detail: 'AccessDeniedException' });
    expect(JSON.stringify(f)).not.toContain('ana.lima');
  });

  it('a prediction\'s end: canceled is its own status; failed and aborted keep Replicate\'s text for the console only; the time-out', () => {
    expect(failureOf({ generationId: 'g', prediction: { status: 'canceled', error: '' } })).toMatchObject({ status: 'canceled', code: 'canceled', message: GENERATION_CANCELED_MESSAGE });
    for (const status of ['failed', 'aborted']) {
      const f = failureOf({ generationId: 'g', prediction: { status, error: 'CUDA out of memory' } });
      expect(f).toEqual({ status: 'failed', code: 'prediction-failed', message: PREDICTION_FAILED_MESSAGE, detail: `prediction ${status}: CUDA out of memory` });
    }
    expect(failureOf({ generationId: 'g', timedOut: true })).toMatchObject({ status: 'failed', code: 'timed-out', message: TIMED_OUT_MESSAGE });
  });
});

describe('licenses and provenance', () => {
  it('a license id per image: the pattern, the same on a retry, different per image and generation', () => {
    const a = licenseIdOf('0d6c3f4e-8a1b-4c2d-9e0f-1a2b3c4d5e6f', 0);
    expect(a).toMatch(LICENSE_ID_PATTERN);
    expect(licenseIdOf('0d6c3f4e-8a1b-4c2d-9e0f-1a2b3c4d5e6f', 0)).toBe(a);
    expect(licenseIdOf('0d6c3f4e-8a1b-4c2d-9e0f-1a2b3c4d5e6f', 1)).not.toBe(a);
    expect(licenseIdOf('1d6c3f4e-8a1b-4c2d-9e0f-1a2b3c4d5e6f', 0)).not.toBe(a);
    expect(a).not.toContain('0d6c3f4e');
  });

  it('the XMP survives sharp\'s PNG encoding with every field, values escaped', async () => {
    const xmp = licenseXmp({ licenseId: 'lic_abcdefghijklmnopqrstuv', talentId: 'sam-o-neil', talentName: 'Sam "Sunny" O\'Neil & Co <b>', licenseUrl: 'https://humanly.example/licenses/lic_abcdefghijklmnopqrstuv' });
    const image = await sharp({ create: { width: 8, height: 8, channels: 3, background: '#c96' } }).png().toBuffer();
    const png = await sharp(image).png().withXmp(xmp).toBuffer();
    const read = (await sharp(png).metadata()).xmp!.toString('utf8');
    expect(read).toContain('Iptc4xmpExt:DigitalSourceType="http://cv.iptc.org/newscodes/digitalsourcetype/trainedAlgorithmicMedia"');
    expect(read).toContain('humanly:LicenseId="lic_abcdefghijklmnopqrstuv"');
    expect(read).toContain('xmpRights:WebStatement="https://humanly.example/licenses/lic_abcdefghijklmnopqrstuv"');
    expect(read).toContain('humanly:TalentName="Sam &quot;Sunny&quot; O&apos;Neil &amp; Co &lt;b&gt;"');
    expect(read).toMatch(/<dc:rights><rdf:Alt><rdf:li xml:lang="x-default">Licensed image of Sam/);
  });

  it('a credit is worth the plan\'s monthly price over its credits, in whole micro-dollars', () => {
    // A free credit is promotional: worth the cheapest paid credit (Enterprise's monthly one), paid by us.
    expect(creditValueMicros('free')).toBe(298_888);
    expect(creditValueMicros('starter')).toBe(437_500);
    expect(creditValueMicros('pro')).toBe(363_333);
    expect(creditValueMicros('enterprise')).toBe(298_888);
  });
});

describe('the generations store finishing a delivery', () => {
  const ID = '0d6c3f4e-8a1b-4c2d-9e0f-1a2b3c4d5e6f';
  const result = { images: [{ index: 0, licenseId: 'lic_abcdefghijklmnopqrstuv', key: 'k' }], creditsSpent: 1, step: { step: 'DeliverImages', at: NOW.toISOString() } };
  const canceled = (...codes: string[]) =>
    Object.assign(new Error('Transaction cancelled'), { name: 'TransactionCanceledException', CancellationReasons: codes.map((Code) => ({ Code })) });

  it('finishes once (false when finished before); a talent gone from the catalog does not stop it, its count is left alone', async () => {
    const mock = mockClient(DynamoDBDocumentClient);
    const store = generationStore(DynamoDBDocumentClient.from(new DynamoDBClient({ region: 'us-east-1' })), 'Generations');
    mock.on(TransactWriteCommand).resolves({});
    expect(await store.finishDelivered(ID, result, { tableName: 'Talent', id: 'maya-chen' })).toBe(true);
    const [both] = mock.commandCalls(TransactWriteCommand);
    expect(both.args[0].input.TransactItems?.[1]?.Update).toMatchObject({ TableName: 'Talent', Key: { id: 'maya-chen' }, UpdateExpression: 'ADD generationCount :n', ExpressionAttributeValues: { ':n': 1 } });

    mock.reset();
    mock.on(TransactWriteCommand).rejects(canceled('ConditionalCheckFailed', 'None'));
    expect(await store.finishDelivered(ID, result, { tableName: 'Talent', id: 'maya-chen' })).toBe(false);
    expect(mock.commandCalls(UpdateCommand)).toHaveLength(0);

    mock.reset();
    mock.on(TransactWriteCommand).rejects(canceled('None', 'ConditionalCheckFailed'));
    mock.on(UpdateCommand).resolves({});
    expect(await store.finishDelivered(ID, result, { tableName: 'Talent', id: 'gone' })).toBe(true);
    const [alone] = mock.commandCalls(UpdateCommand);
    expect(alone.args[0].input).toMatchObject({ TableName: 'Generations', ConditionExpression: 'attribute_exists(pk) AND attribute_not_exists(talentCounted)' });
    expect(alone.args[0].input.UpdateExpression).toMatch(/^SET #status = :succeeded/);
    mock.restore();
  });
});
