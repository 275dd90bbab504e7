// A likeness removal and erasure as deployed (docs/training.md "Removal and erasure",
// docs/identity.md "What is stored"): the likeness schedule may put events on our bus; two rules
// take `Likeness.Removed` to the training wing's and the founding wing's consumers, each retried
// with dead letters; each consumer, the data export and the console's erasure are granted exactly
// what they do with the Training table, the training bucket, the founding photos and the
// Replicate token. Read from the app's template with its nested stacks flattened in, as the twin
// reads it (a reference across stacks reads as the resource it names).
import { LIKENESS_REMOVED } from '../../events/likeness-events';
import { EVENT_SOURCE } from '../../events/product';
import { actionsOf, flattenedStack } from '../support/stack';

const { template, logicalId: idOf, statementsOf } = flattenedStack();
const resources = (type: string) => template.findResources(type);
const fnId = (prefix: string) => idOf('AWS::Lambda::Function', prefix);
const names: Array<[string, string]> = [
  [idOf('AWS::DynamoDB::Table', 'TrainingTable'), 'training'],
  [idOf('AWS::DynamoDB::Table', 'FoundingApplicationsTable'), 'applications'],
  [idOf('AWS::S3::Bucket', 'TrainingFiles'), 'training-files'],
  [idOf('AWS::S3::Bucket', 'FoundingPhotos'), 'photos'],
  [idOf('AWS::SecretsManager::Secret', 'ReplicateToken'), 'token'],
  [idOf('AWS::Events::EventBus', 'EventsBus'), 'bus'],
];
/** A resource by the short name of what it names, with its key pattern or index: `training-files/samples/*`, `training/index/byTalent`. */
function label(resource: unknown): string {
  const text = JSON.stringify(resource);
  const hit = names.find(([id]) => text.includes(`"${id}"`));
  if (!hit) return 'other';
  const suffix = /"(\/[^"]*)"\]\]\}$/.exec(text)?.[1] ?? '';
  return `${hit[1]}${suffix}`;
}
/** A function's grants on the resources above, as sorted `action resource [listed prefixes]` strings. */
const grantsOf = (prefix: string) =>
  statementsOf(prefix)
    .flatMap((s) => (Array.isArray(s.Resource) ? s.Resource : [s.Resource]).flatMap((r) => actionsOf(s).map((a) => ({ a, r: label(r), c: s.Condition }))))
    .filter(({ r }) => r !== 'other')
    .map(({ a, r, c }) => `${a} ${r}${c ? ` ${JSON.stringify((c as { StringLike: Record<string, unknown> }).StringLike['s3:prefix'])}` : ''}`)
    .sort();

describe('Likeness.Removed', () => {
  it('is put on our bus by the likeness schedule, which is told the bus', () => {
    expect(resources('AWS::Lambda::Function')[fnId('ScheduleJob')].Properties.Environment.Variables.EVENT_BUS_NAME).toEqual({ Ref: names[5]![0] });
    expect(grantsOf('ScheduleJob')).toContain('events:PutEvents bus');
  });

  it('reaches the training wing\'s and the founding wing\'s consumers, each retried with its dead letters', () => {
    const rules = Object.values(resources('AWS::Events::Rule')).filter((r) => JSON.stringify(r.Properties.EventPattern?.['detail-type']) === JSON.stringify([LIKENESS_REMOVED]));
    const targets = rules.map((r) => {
      expect(r.Properties.EventPattern.source).toEqual([EVENT_SOURCE]);
      expect(r.Properties.EventBusName).toEqual({ Ref: names[5]![0] });
      const [target] = r.Properties.Targets;
      expect(target.RetryPolicy).toEqual({ MaximumEventAgeInSeconds: 21600, MaximumRetryAttempts: 8 });
      expect(target.DeadLetterConfig.Arn['Fn::GetAtt'][0]).toMatch(/DeadLetters/);
      return String(target.Arn['Fn::GetAtt'][0]).replace(/[0-9A-F]{8}$/, '');
    });
    expect(targets.sort()).toEqual(['DeleteRemovedLikenessPhotos', 'RemoveLikenessModel']);
    const entries = ['RemoveLikenessModel', 'DeleteRemovedLikenessPhotos'].map((p) => resources('AWS::Lambda::Function')[fnId(p)].Metadata['app:entry']);
    expect(entries).toEqual(['functions/training/triggers/remove-likeness-model/handler.ts', 'functions/founding/triggers/delete-removed-likeness-photos/handler.ts']);
  });

  it('lets the model\'s removal read, query and mark the trainings, delete only training sets and samples, and read the Replicate token', () => {
    expect(grantsOf('RemoveLikenessModel')).toEqual([
      'dynamodb:GetItem training',
      'dynamodb:GetItem training/index/*',
      'dynamodb:Query training',
      'dynamodb:Query training/index/*',
      'dynamodb:UpdateItem training',
      'dynamodb:UpdateItem training/index/*',
      's3:DeleteObject training-files/samples/*',
      's3:DeleteObject training-files/training-sets/*',
      's3:ListBucket training-files ["samples/*"]',
      'secretsmanager:DescribeSecret token',
      'secretsmanager:GetSecretValue token',
    ]);
  });

  it('lets the photos\' deletion read and mark the application and delete only under its prefixes', () => {
    expect(grantsOf('DeleteRemovedLikenessPhotos')).toEqual([
      'dynamodb:ConditionCheckItem applications',
      // The application's photo hashes (the selfie copy check's item) go with the photos.
      'dynamodb:DeleteItem applications',
      'dynamodb:GetItem applications',
      'dynamodb:PutItem applications',
      'dynamodb:UpdateItem applications',
      's3:DeleteObject photos/applications/*',
      's3:DeleteObject photos/pending/*',
      's3:ListBucket photos ["applications/*"]',
    ]);
  });
});

describe('the trainings of a talent beyond the Training stack', () => {
  it('the data export only queries the byTalent index', () => {
    expect(grantsOf('ExportMyData').filter((g) => / training/.test(g))).toEqual(['dynamodb:Query training/index/byTalent']);
    expect(resources('AWS::Lambda::Function')[fnId('ExportMyData')].Properties.Environment.Variables.TRAINING_TABLE).toEqual({ Ref: names[0]![0] });
  });

  it('the console\'s erasure reads and deletes the model and trainings, deletes the training files and reads the Replicate token', () => {
    expect(grantsOf('ConsoleErasePerson').filter((g) => / (training|token)/.test(g))).toEqual([
      'dynamodb:DeleteItem training',
      'dynamodb:GetItem training',
      'dynamodb:Query training/index/byTalent',
      's3:DeleteObject training-files/samples/*',
      's3:DeleteObject training-files/training-sets/*',
      's3:ListBucket training-files ["samples/*"]',
      'secretsmanager:DescribeSecret token',
      'secretsmanager:GetSecretValue token',
    ]);
    const env = resources('AWS::Lambda::Function')[fnId('ConsoleErasePerson')].Properties.Environment.Variables;
    expect({ table: env.TRAINING_TABLE, bucket: env.TRAINING_BUCKET, token: env.REPLICATE_TOKEN_SECRET }).toEqual({ table: { Ref: names[0]![0] }, bucket: { Ref: names[2]![0] }, token: { Ref: names[4]![0] } });
  });
});
