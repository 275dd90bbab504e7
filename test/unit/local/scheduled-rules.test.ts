import { EventRouter, type BusEvent } from '../../../infra/local/eventbridge';
import { generatePassword, LocalSecrets } from '../../../infra/local/emulators/secrets';
import { Resolver, type CfnTemplate } from '../../../infra/local/template';

const FN = 'arn:aws:lambda:us-east-1:000000000000:function:Allowance';
const template: CfnTemplate = {
  Resources: {
    MonthlyAllowanceRule1: {
      Type: 'AWS::Events::Rule',
      Properties: { ScheduleExpression: 'cron(5 0 1 * ? *)', State: 'ENABLED', Targets: [{ Id: 'Target0', Arn: FN }] },
    },
    OrderPlacedRule2: {
      Type: 'AWS::Events::Rule',
      Properties: { EventPattern: { source: ['aws.events'] }, Targets: [{ Id: 'Target0', Arn: 'arn:aws:lambda:us-east-1:000000000000:function:Other' }] },
    },
    ReplicateToken3: { Type: 'AWS::SecretsManager::Secret', Properties: { GenerateSecretString: { ExcludePunctuation: true, PasswordLength: 40 } } },
    Given4: { Type: 'AWS::SecretsManager::Secret', Properties: { Name: 'given', SecretString: 'the value' } },
  },
} as unknown as CfnTemplate;

describe('scheduled rules on the twin', () => {
  it('are served, matched by no event, and fired on demand with a Scheduled Event', async () => {
    const delivered: Array<{ arn: string; event: BusEvent }> = [];
    const router = new EventRouter(template, new Resolver(template), {
      lambda: async (arn, event) => void delivered.push({ arn, event: event as BusEvent }),
      stateMachine: async () => undefined,
    });
    expect(router.unsupported).toEqual([]);
    expect(router.rules.map((r) => r.logicalId)).toEqual(['MonthlyAllowanceRule1', 'OrderPlacedRule2']);

    // An event put on the bus never reaches a scheduled rule's target (it has no pattern).
    router.route('default', { version: '0', id: 'e1', 'detail-type': 'Scheduled Event', source: 'aws.events', account: '0', time: '', region: 'us-east-1', resources: [], detail: {} });
    await router.idle();
    expect(delivered.map((d) => d.arn)).not.toContain(FN);

    expect(await router.runScheduled('MonthlyAllowance')).toEqual(['MonthlyAllowanceRule1']);
    const fired = delivered.filter((d) => d.arn === FN);
    expect(fired).toHaveLength(1);
    expect(fired[0].event).toMatchObject({ 'detail-type': 'Scheduled Event', source: 'aws.events', detail: {} });
    expect(fired[0].event.resources).toEqual([expect.stringMatching(/:rule\/MonthlyAllowanceRule1$/)]);
    await expect(router.runScheduled('OrderPlaced')).rejects.toThrow(/No scheduled rule whose logical id starts with OrderPlaced \(scheduled rules: MonthlyAllowanceRule1\)/);
  });

  it('refuses a schedule that is neither rate() nor cron()', () => {
    const bad = { Resources: { R: { Type: 'AWS::Events::Rule', Properties: { ScheduleExpression: 'every day', Targets: [] } } } } as unknown as CfnTemplate;
    const router = new EventRouter(bad, new Resolver(bad), { lambda: async () => undefined, stateMachine: async () => undefined });
    expect(router.unsupported).toEqual(['R: schedule every day is neither rate(...) nor cron(...)']);
  });
});

describe('Secrets Manager on the twin', () => {
  it('generates the value a GenerateSecretString asks for, keeps a given SecretString, and answers by ARN or name', () => {
    const resolver = new Resolver(template);
    const secrets = new LocalSecrets(template, resolver);
    const token = secrets.valueOf('ReplicateToken')!;
    expect(token).toMatch(/^r8_[A-Za-z0-9]{37}$/);
    const arn = resolver.resolve({ Ref: 'ReplicateToken3' }) as string;
    expect(arn).toMatch(/^arn:aws:secretsmanager:us-east-1:\d+:secret:ReplicateToken3-[0-9a-f]{6}$/);
    expect(secrets.getSecretValue(arn)).toMatchObject({ ARN: arn, SecretString: token, VersionStages: ['AWSCURRENT'] });
    expect(secrets.getSecretValue('given').SecretString).toBe('the value');
    expect(() => secrets.getSecretValue('nope')).toThrow(expect.objectContaining({ name: 'ResourceNotFoundException', message: expect.stringContaining('nope') }));
    expect(() => secrets.getSecretValue(undefined)).toThrow('SecretId is required');
  });

  it('draws from the characters allowed', () => {
    expect(generatePassword({ ExcludeUppercase: true, ExcludeLowercase: true, ExcludePunctuation: true, PasswordLength: 12 })).toMatch(/^\d{12}$/);
    expect(generatePassword()).toHaveLength(32);
  });
});
