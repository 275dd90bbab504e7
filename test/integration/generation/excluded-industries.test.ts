// Excluded industries on the twin (decision 039): the Generation workflow's CheckPolicy refuses a
// brand by the word lists without asking anyone, asks the classifier (the Replicate emulator's
// language model) before a prediction of an allowed prompt, and fails closed, credits returned,
// when the classifier gives no answer.
import { randomUUID } from 'node:crypto';
import { StartExecutionCommand, SFNClient } from '@aws-sdk/client-sfn';
import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { excludedIndustryMessage } from '../../../events/generation-values';
import { DEFAULT_INDUSTRY_CLASSIFIER_MODEL, INDUSTRY_CHECK_UNAVAILABLE_MESSAGE, readIndustryClassifierInput } from '../../../events/industries';
import { TWIN_CREDENTIALS, TWIN_REGION } from '../../../infra/local/emulators/ports';
import { accountStore } from '../../../functions/accounts/store';
import { creditLedger } from '../../../functions/accounts/credits';
import { generationStore, type GenerationRecord } from '../../../functions/generation/store';
import { eventually } from '../../support/eventually';
import { fileMarker } from '../../support/marker';
import { documentClient, useTwin } from '../../support/twin';

jest.setTimeout(120_000);
const twin = useTwin();
const marker = fileMarker('exind');

const doc = () => documentClient(twin());
const generations = () => generationStore(doc(), twin().physicalName('GenerationsTable'));
const ledger = () => creditLedger(doc(), twin().physicalName('AccountsTable'));
const sfn = () => new SFNClient({ endpoint: twin().urls.control, region: TWIN_REGION, credentials: { ...TWIN_CREDENTIALS } });

function workflowArn(): string {
  const [, machine] = Object.entries(twin().template.Resources).find(([id, r]) => r.Type === 'AWS::StepFunctions::StateMachine' && id.startsWith('GenerationWorkflow'))!;
  const name = machine.Properties?.StateMachineName as string;
  return twin().functions()[0].arn.replace(/^arn:aws:lambda:([^:]+):([^:]+):.*$/, `arn:aws:states:$1:$2:stateMachine:${name}`);
}

/** A client of this file (10 starting credits). */
async function newClient(): Promise<string> {
  const id = randomUUID();
  await accountStore(doc(), twin().physicalName('AccountsTable')).create({ id, email: `${marker}.${id.slice(0, 8)}@clients.example`, full_name: 'Exclusion Client', role: 'client' });
  return id;
}

/** A talent of this file who excludes alcohol: Maya Chen's catalog item under a new id, with her preview model. */
async function alcoholFreeTalent(): Promise<string> {
  const table = twin().physicalName('CatalogTalentTable');
  const maya = (await doc().send(new GetCommand({ TableName: table, Key: { id: 'maya-chen' } }))).Item!;
  const id = `${marker}-${randomUUID().slice(0, 6)}`;
  await doc().send(
    new PutCommand({
      TableName: table,
      Item: { ...maya, id, name: 'Exclusion Talent', generationCount: 0, excludedIndustries: ['alcohol'], generation: { model: 'humanly-preview/maya-chen', triggerWord: 'EXWRD' } },
    }),
  );
  return id;
}

/** Stores a generation as the start route does and starts its execution; resolves with the final record. */
async function generate(accountId: string, talentId: string, prompt: string): Promise<GenerationRecord> {
  const id = randomUUID();
  const now = new Date().toISOString();
  await generations().create({
    id,
    accountId,
    clientEmail: `${marker}@clients.example`,
    licensee: 'Exclusion Client',
    planId: 'starter',
    talentId,
    talentName: 'Exclusion Talent',
    prompt,
    style: 'Photorealistic',
    count: 1,
    status: 'queued',
    createdAt: now,
    updatedAt: now,
    creditsReserved: 0,
    creditsSpent: 0,
    executionName: id,
    steps: [],
    images: [],
  });
  await sfn().send(new StartExecutionCommand({ stateMachineArn: workflowArn(), name: id, input: JSON.stringify({ generationId: id }) }));
  return eventually(
    async () => {
      const g = await generations().get(id);
      return g && ['succeeded', 'failed', 'canceled'].includes(g.status) && g;
    },
    { timeoutMs: 90_000, what: `generation ${id} to finish` },
  );
}

/** The emulator's predictions whose prompt carries the text, the classifier's and the image model's apart. */
async function predictionsFor(text: string) {
  const all = (await twin().replicate.predictions()).filter((p) => String(p.input.prompt).includes(text));
  return {
    classifier: all.filter((p) => p.model === DEFAULT_INDUSTRY_CLASSIFIER_MODEL),
    images: all.filter((p) => p.model !== DEFAULT_INDUSTRY_CLASSIFIER_MODEL),
  };
}

describe('excluded industries in the Generation workflow', () => {
  let client: string;
  let talent: string;
  beforeAll(async () => {
    [client, talent] = await Promise.all([newClient(), alcoholFreeTalent()]);
  });

  it('refuses a brand of an excluded industry by the word lists, naming the industry, and returns the credits', async () => {
    const tag = `${marker}-brand`;
    const g = await generate(client, talent, `woman holding a Heineken at a bar ${tag}`);
    expect(g).toMatchObject({ status: 'failed', failure: { code: 'policy', message: excludedIndustryMessage('alcohol') }, creditsSpent: 0, images: [] });
    expect(g.failure?.message).toMatch(/for alcohol\./);
    // The word lists answered: neither the classifier nor the image model was asked.
    expect(await predictionsFor(tag)).toEqual({ classifier: [], images: [] });
    expect(await ledger().reservation(client, g.id)).toMatchObject({ committed: 0, open: 0 });
  });

  it('asks the classifier about an allowed prompt before the prediction starts, then generates', async () => {
    const tag = `${marker}-allowed`;
    const g = await generate(client, talent, `a ceramicist glazing a bowl ${tag}`);
    expect(g).toMatchObject({ status: 'succeeded', creditsSpent: 1 });
    expect(g.steps).toEqual(expect.arrayContaining([expect.objectContaining({ step: 'CheckPolicy', detail: 'allowed (word lists and classifier)' })]));
    const { classifier, images } = await predictionsFor(tag);
    expect(classifier).toHaveLength(1);
    expect(images).toHaveLength(1);
    expect(classifier[0]).toMatchObject({ status: 'succeeded', output: ['non', 'e'] });
    expect(classifier[0].webhook).toBeUndefined();
    expect(readIndustryClassifierInput(String(classifier[0].input.prompt))).toEqual({ excluded: ['alcohol'], prompt: `a ceramicist glazing a bowl ${tag}` });
    expect(classifier[0].completedAt!).toBeLessThanOrEqual(images[0].createdAt);
  });

  it('fails closed when the classifier gives no answer: retried, then failed with a message to try again, credits returned, no image prediction', async () => {
    const tag = `${marker}-outage`;
    await twin().replicate.inject({ kind: 'prediction-failed', model: DEFAULT_INDUSTRY_CLASSIFIER_MODEL, promptIncludes: tag, times: 10 });
    const before = await ledger().balance(client);
    const g = await generate(client, talent, `a ceramicist glazing a bowl ${tag}`);
    expect(g).toMatchObject({ status: 'failed', failure: { code: 'error', message: INDUSTRY_CHECK_UNAVAILABLE_MESSAGE }, creditsSpent: 0, images: [] });
    const { classifier, images } = await predictionsFor(tag);
    // The workflow retried the step before giving up.
    expect(classifier.length).toBeGreaterThan(1);
    expect(classifier.every((p) => p.status === 'failed')).toBe(true);
    expect(images).toEqual([]);
    expect(await ledger().balance(client)).toBe(before);
  });
});
