// The Training nested stack as deployed (docs/training.md, decision 046): its routes and access
// classes, the acceptance's rule (accepted decisions only) starting the LikenessTraining machine
// through its consumer, the stage's trainer settings reaching the steps, the private training
// bucket (sets expire) and the founding photos read only under applications/, the Replicate
// token read by the steps that call Replicate, the failure metric's alarm, and the stage settings'
// defaults, refusals and the prod stage's licence gate.
import { App } from 'aws-cdk-lib';
import { FAILURE_METRICS } from '../../events/metrics';
import { FOUNDING_APPLICATION_DECIDED } from '../../events/founding';
import { DEFAULT_TRAINER, DEFAULT_TRAINER_VERSION, TRAINING_SET_RETENTION_DAYS } from '../../events/training-values';
import { stageConfig } from '../../infra/lib/platform/stage-config';
import { buildStack, synthStack } from '../support/stack';

const { nested } = synthStack();
type Resource = { Type: string; Properties: Record<string, any>; Metadata?: Record<string, unknown> }; // eslint-disable-line @typescript-eslint/no-explicit-any
const training = nested('Training').toJSON().Resources as Record<string, Resource>;
const alarms = nested('Alarms').toJSON().Resources as Record<string, Resource>;
const of = (type: string) => Object.entries(training).filter(([, r]) => r.Type === type);
const fnIdOf = (entry: string) => of('AWS::Lambda::Function').find(([, r]) => r.Metadata?.['app:entry'] === entry)?.[0];
const envOf = (entry: string) => training[fnIdOf(entry)!]!.Properties.Environment.Variables as Record<string, unknown>;
const step = (name: string) => `functions/training/steps/${name}/handler.ts`;
/** Every statement of a function's role. */
const statementsOf = (entry: string) => {
  const role = training[fnIdOf(entry)!]!.Properties.Role['Fn::GetAtt'][0];
  return of('AWS::IAM::Policy')
    .filter(([, p]) => p.Properties.Roles.some((r: { Ref: string }) => r.Ref === role))
    .flatMap(([, p]) => p.Properties.PolicyDocument.Statement as Array<{ Action: string | string[]; Resource: unknown }>);
};
const actionsOf = (entry: string) => statementsOf(entry).flatMap((s) => (Array.isArray(s.Action) ? s.Action : [s.Action]));

describe('the Training stack', () => {
  it('serves the talent\'s own model to accepted talent, the webhook signed, the trainings to admins', () => {
    const routes = of('AWS::ApiGatewayV2::Route').map(([, r]) => [String(r.Properties.RouteKey), r.Metadata?.['app:access']]);
    expect(Object.fromEntries(routes)).toEqual({
      'POST /webhooks/replicate-training': 'signed',
      'GET /me/likeness-model': 'accepted-talent',
      'POST /me/likeness-model/approve': 'accepted-talent',
      'POST /me/likeness-model/reject': 'accepted-talent',
      'GET /admin/talent/{id}/trainings': 'admin',
      'POST /admin/talent/{id}/trainings': 'admin',
      'POST /admin/talent/{id}/trainings/{trainingId}/rollback': 'admin',
    });
  });

  it('starts the training on accepted decisions only, through a consumer with its dead letters', () => {
    const decided = of('AWS::Events::Rule').filter(([, r]) => JSON.stringify(r.Properties.EventPattern).includes(FOUNDING_APPLICATION_DECIDED));
    expect(decided).toHaveLength(1);
    const [[, rule]] = decided;
    expect(rule.Properties.EventPattern).toMatchObject({ 'detail-type': [FOUNDING_APPLICATION_DECIDED], detail: { decision: ['accept'] } });
    expect(JSON.stringify(rule.Properties.Targets)).toContain(fnIdOf('functions/training/triggers/start-likeness-training/handler.ts'));
    expect(rule.Properties.Targets[0].DeadLetterConfig).toBeDefined();
    expect(actionsOf('functions/training/triggers/start-likeness-training/handler.ts')).toContain('states:StartExecution');
    const [[, machine]] = of('AWS::StepFunctions::StateMachine');
    expect(JSON.stringify(machine.Properties.StateMachineName)).toContain('-LikenessTraining');
    expect(machine.Properties.TracingConfiguration).toEqual({ Enabled: true });
  });

  it('hands the stage\'s trainer settings to the steps that use them', () => {
    expect(envOf(step('start-training'))).toMatchObject({
      TRAINER: DEFAULT_TRAINER,
      TRAINER_VERSION: DEFAULT_TRAINER_VERSION,
      TRAINER_INPUTS: JSON.stringify({ images: 'input_images', triggerWord: 'trigger_word', steps: 'steps' }),
      TRAINING_STEPS: '1000',
      MODEL_OWNER: 'humanly',
      TRAINING_HARDWARE: 'gpu-h100',
    });
    expect(JSON.stringify(envOf(step('start-training')).WEBHOOK_URL)).toContain('/webhooks/replicate-training');
    expect(envOf(step('build-training-set')).TRAINING_IMAGE_SIZE).toBe('1024');
    expect(envOf(step('create-model')).TRAINING_HARDWARE).toBe('gpu-h100');
    expect(envOf(step('prepare-training')).MODEL_OWNER).toBe('humanly');
  });

  it('keeps the photos private: read from the founding bucket under applications/ only, the sets in a private bucket that expires them', () => {
    const [[bucketId, bucket]] = of('AWS::S3::Bucket');
    expect(bucket.Properties.PublicAccessBlockConfiguration).toMatchObject({ BlockPublicAcls: true, BlockPublicPolicy: true, IgnorePublicAcls: true, RestrictPublicBuckets: true });
    expect(bucket.Properties.LifecycleConfiguration.Rules).toContainEqual(
      expect.objectContaining({ Prefix: 'training-sets/', ExpirationInDays: TRAINING_SET_RETENTION_DAYS, Status: 'Enabled' }),
    );
    const build = statementsOf(step('build-training-set'));
    const photos = build.find((s) => JSON.stringify(s.Resource).includes('FoundingPhotos'))!;
    expect(photos.Action).toBe('s3:GetObject');
    expect(JSON.stringify(photos.Resource)).toContain('/applications/*');
    const sets = build.find((s) => JSON.stringify(s.Resource).includes(bucketId))!;
    expect({ action: sets.Action, key: JSON.stringify(sets.Resource).includes('/training-sets/*') }).toEqual({ action: 's3:PutObject', key: true });
    // The talent's and the console's reads sign sample URLs only.
    for (const entry of ['functions/training/routes/get-my-likeness-model/handler.ts', 'functions/training/routes/list-trainings-admin/handler.ts']) {
      const s3 = statementsOf(entry).filter((s) => JSON.stringify(s.Action).includes('s3:'));
      expect(s3.map((s) => [s.Action, JSON.stringify(s.Resource).includes('/samples/*')])).toEqual([['s3:GetObject', true]]);
    }
  });

  it('lets only the steps that call Replicate, and the webhook, read the Replicate token', () => {
    const readers = of('AWS::Lambda::Function')
      .filter(([, r]) => r.Metadata?.['app:entry'])
      .filter(([id]) => actionsOf(String(training[id]!.Metadata?.['app:entry'])).includes('secretsmanager:GetSecretValue'))
      .map(([, r]) => String(r.Metadata?.['app:entry']).split('/').at(-2))
      .sort();
    expect(readers).toEqual(['create-model', 'generate-samples', 'poll-training', 'record-failure', 'record-version', 'remove-likeness-model', 'replicate-training-webhook', 'start-training']);
  });

  it('alarms on LikenessTrainingsFailed, any count in 5 minutes', () => {
    const alarm = Object.values(alarms).find((r) => r.Type === 'AWS::CloudWatch::Alarm' && r.Properties.MetricName === FAILURE_METRICS.trainingFailed);
    expect(alarm?.Properties).toMatchObject({ MetricName: 'LikenessTrainingsFailed', Statistic: 'Sum', Period: 300, Threshold: 1, TreatMissingData: 'notBreaching' });
    expect(alarm!.Properties.Namespace).toEqual(envOf(step('record-failure')).METRICS_NAMESPACE);
  });
});

describe('the trainer\'s stage settings (decision 046)', () => {
  const settings = (context: Record<string, unknown> = {}) => stageConfig(new App({ context })).likenessTraining;

  it('default to the FLUX.1 [dev] trainer, non-commercial, with the twin\'s owner', () => {
    expect(settings()).toEqual({
      trainer: DEFAULT_TRAINER,
      trainerVersion: DEFAULT_TRAINER_VERSION,
      inputs: { images: 'input_images', triggerWord: 'trigger_word', steps: 'steps' },
      steps: 1000,
      modelOwner: 'humanly',
      hardware: 'gpu-h100',
      imageSize: 1024,
      licence: 'non-commercial',
    });
  });

  it('take another trainer, its input names, steps, owner, hardware and size; refuse bad ones by name', () => {
    const version = 'f'.repeat(64);
    expect(
      settings({
        likenessTrainer: `acme/portrait-trainer:${version}`,
        likenessTrainerInputs: '{"images":"images_zip","triggerWord":"token","steps":"max_train_steps"}',
        likenessTrainingSteps: '1500',
        likenessModelOwner: 'acme-likeness',
        likenessTrainingHardware: 'gpu-a100-large',
        likenessTrainingImageSize: 768,
        likenessTrainerLicence: 'commercial',
      }),
    ).toMatchObject({ trainer: 'acme/portrait-trainer', trainerVersion: version, inputs: { images: 'images_zip', steps: 'max_train_steps' }, steps: 1500, modelOwner: 'acme-likeness', hardware: 'gpu-a100-large', imageSize: 768, licence: 'commercial' });
    expect(() => settings({ likenessTrainer: 'ostris/flux-dev-lora-trainer' })).toThrow(/likenessTrainer must be a Replicate trainer/);
    expect(() => settings({ likenessTrainerInputs: '{"images":"x y"}' })).toThrow(/likenessTrainerInputs.images/);
    expect(() => settings({ likenessTrainingSteps: 7000 })).toThrow(/likenessTrainingSteps must be from 3 to 6000/);
    expect(() => settings({ likenessTrainingHardware: 'gpu-h200' })).toThrow(/likenessTrainingHardware must be one of/);
    expect(() => settings({ likenessTrainerLicence: 'maybe' })).toThrow(/likenessTrainerLicence must be one of/);
  });

  it('the prod stage builds no Training stack on a non-commercial trainer', () => {
    const prod = { stage: 'prod', stripePrices: JSON.stringify(Object.fromEntries(['starter', 'pro', 'enterprise'].map((p) => [p, { monthly: `price_${p}_m`, credit: `price_${p}_c` }]))) };
    expect(() => buildStack(prod)).toThrow(/likenessTrainerLicence must be commercial on the prod stage/);
    expect(() => buildStack({ ...prod, likenessTrainerLicence: 'commercial' })).not.toThrow();
  });
});
