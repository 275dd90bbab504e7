// The industry classifier's stage setting (decision 039): validated, on by default, never off in
// production, and handed to the CheckPolicy function with the Replicate token it calls with.
import { App } from 'aws-cdk-lib';
import { DEFAULT_INDUSTRY_CLASSIFIER_MODEL } from '../../events/industries';
import { DEFAULT_STRIPE_PRICES, stageConfig } from '../../infra/lib/platform/stage-config';
import { synthTemplate } from '../../infra/local/template';

const configOf = (context: Record<string, unknown>) => stageConfig(new App({ context }));

describe('the industryClassifierModel setting', () => {
  it('names a Replicate model, the default unless the stage names another', () => {
    expect(configOf({ stage: 'prod', stripePrices: DEFAULT_STRIPE_PRICES }).industryClassifierModel).toBe(DEFAULT_INDUSTRY_CLASSIFIER_MODEL);
    expect(DEFAULT_INDUSTRY_CLASSIFIER_MODEL).toMatch(/^[a-z0-9-]+\/[a-z0-9.-]+$/);
    expect(configOf({ stage: 'dev', industryClassifierModel: 'acme/guard-2b' }).industryClassifierModel).toBe('acme/guard-2b');
  });

  it('may be turned off with none outside production only', () => {
    expect(configOf({ stage: 'dev', industryClassifierModel: 'none' }).industryClassifierModel).toBeUndefined();
    expect(() => configOf({ stage: 'prod', industryClassifierModel: 'none' })).toThrow(/industryClassifierModel cannot be none on the prod stage/);
  });

  it('refuses anything but owner/name, naming the setting and the value', () => {
    for (const bad of ['llama', 'meta/llama/3', 'meta/llama 3', 'https://replicate.com/meta/llama']) {
      expect(() => configOf({ stage: 'dev', industryClassifierModel: bad })).toThrow(`Context industryClassifierModel must be a Replicate model 'owner/name' (or none outside prod), got ${JSON.stringify(bad)}`);
    }
  });
});

describe('the CheckPolicy function', () => {
  const resources = synthTemplate({ stage: 'test' }).Resources;
  const [, fn] = Object.entries(resources).find(([id, r]) => r.Type === 'AWS::Lambda::Function' && id.startsWith('CheckPolicy'))!;

  it('is given the model and the Replicate token, and a minute for the classifier', () => {
    const env = fn.Properties?.Environment?.Variables ?? {};
    expect(env.INDUSTRY_CLASSIFIER_MODEL).toBe(DEFAULT_INDUSTRY_CLASSIFIER_MODEL);
    expect(JSON.stringify(env.REPLICATE_TOKEN_SECRET)).toMatch(/ReplicateToken/);
    expect(fn.Properties?.Timeout).toBe(60);
  });
});
