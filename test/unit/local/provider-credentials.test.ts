import { LocalSecrets, PROVIDER_CREDENTIALS } from '../../../infra/local/emulators/secrets';
import { startReplicate } from '../../../infra/local/emulators/replicate';
import { startStripe } from '../../../infra/local/emulators/stripe';
import { Resolver, type CfnTemplate } from '../../../infra/local/template';

// The template asks Secrets Manager for a random password for each provider credential (what
// CDK can ask for); the twin gives it the provider's own shape instead.
const generated = { GenerateSecretString: { ExcludePunctuation: true, PasswordLength: 40 } };
const template = {
  Resources: {
    StripeSecretKeyA1: { Type: 'AWS::SecretsManager::Secret', Properties: generated },
    StripeWebhookSecretB2: { Type: 'AWS::SecretsManager::Secret', Properties: generated },
    StripeConnectWebhookSecretC3: { Type: 'AWS::SecretsManager::Secret', Properties: generated },
    StripeIdentityWebhookSecretG7: { Type: 'AWS::SecretsManager::Secret', Properties: generated },
    ReplicateTokenD4: { Type: 'AWS::SecretsManager::Secret', Properties: generated },
    OriginVerifyE5: { Type: 'AWS::SecretsManager::Secret', Properties: generated },
    ReplicateTokenGivenF6: { Type: 'AWS::SecretsManager::Secret', Properties: { Name: 'given', SecretString: 'as written' } },
  },
} as unknown as CfnTemplate;

describe("the twin's provider credentials look like the providers'", () => {
  const secrets = new LocalSecrets(template, new Resolver(template));

  it('draws a Stripe test key, whsec_ signing secrets and a Replicate r8_ token, fresh per twin', () => {
    expect(secrets.valueOf('StripeSecretKey')).toMatch(/^sk_test_[A-Za-z0-9]{99}$/);
    expect(secrets.valueOf('StripeWebhookSecret')).toMatch(/^whsec_[A-Za-z0-9]{32}$/);
    expect(secrets.valueOf('StripeConnectWebhookSecret')).toMatch(/^whsec_[A-Za-z0-9]{32}$/);
    expect(secrets.valueOf('StripeIdentityWebhookSecret')).toMatch(/^whsec_[A-Za-z0-9]{32}$/);
    expect(secrets.valueOf('ReplicateTokenD4')).toMatch(/^r8_[A-Za-z0-9]{37}$/);
    expect(secrets.valueOf('StripeWebhookSecret')).not.toBe(secrets.valueOf('StripeConnectWebhookSecret'));
    expect(secrets.valueOf('StripeIdentityWebhookSecret')).not.toBe(secrets.valueOf('StripeWebhookSecret'));

    const another = new LocalSecrets(template, new Resolver(template));
    expect(another.valueOf('StripeSecretKey')).not.toBe(secrets.valueOf('StripeSecretKey'));
    expect(another.valueOf('ReplicateTokenD4')).not.toBe(secrets.valueOf('ReplicateTokenD4'));
  });

  it('leaves other secrets, and values the template gives, as they are', () => {
    expect(secrets.valueOf('OriginVerify')).toMatch(/^[A-Za-z0-9]{40}$/);
    expect(secrets.valueOf('ReplicateTokenGiven')).toBe('as written');
  });

  it('matches its own patterns', () => {
    for (const c of PROVIDER_CREDENTIALS) expect(c.make()).toMatch(c.pattern);
  });
});

describe('the emulators take only credentials of the real shape', () => {
  it('Stripe: a test-mode secret key; its own is sk_test_ with a pk_test_ publishable key', async () => {
    await expect(startStripe({ secretKey: 'A'.repeat(40) })).rejects.toThrow(/test-mode secret key, sk_test_/);
    await expect(startStripe({ secretKey: `sk_live_${'a'.repeat(99)}` })).rejects.toThrow(/test-mode secret key/);
    const stripe = await startStripe();
    try {
      expect(stripe.secretKey).toMatch(/^sk_test_[A-Za-z0-9]{99}$/);
      expect(stripe.publishableKey).toMatch(/^pk_test_[A-Za-z0-9]{99}$/);
    } finally {
      await stripe.stop();
    }
  });

  it('Replicate: r8_ and 37 letters and digits', async () => {
    await expect(startReplicate({ token: 'A'.repeat(40) })).rejects.toThrow(/r8_ and 37 letters and digits/);
    const replicate = await startReplicate();
    try {
      expect(replicate.token).toMatch(/^r8_[A-Za-z0-9]{37}$/);
      expect(replicate.webhookSecret).toMatch(/^whsec_/);
    } finally {
      await replicate.stop();
    }
  });
});
