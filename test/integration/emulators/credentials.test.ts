import { GetSecretValueCommand, SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import Replicate from 'replicate';
import Stripe from 'stripe';
import { eventually } from '../../support/eventually';
import { fileMarker } from '../../support/marker';
import { useTwin } from '../../support/twin';

jest.setTimeout(60_000);

// The credentials the twin's functions read from its Secrets Manager, and `npm start` prints,
// are shaped as the providers issue them, and the emulators take those and refuse others, as
// Stripe and Replicate do.
describe("the twin's Stripe and Replicate credentials, through the official clients", () => {
  const twin = useTwin();
  const marker = fileMarker('credentials');

  async function secret(logicalIdPrefix: string): Promise<string> {
    const sm = new SecretsManagerClient({
      endpoint: twin().sdkEnv.AWS_ENDPOINT_URL_SECRETS_MANAGER,
      region: twin().sdkEnv.AWS_REGION,
      credentials: { accessKeyId: twin().sdkEnv.AWS_ACCESS_KEY_ID, secretAccessKey: twin().sdkEnv.AWS_SECRET_ACCESS_KEY },
    });
    return (await sm.send(new GetSecretValueCommand({ SecretId: twin().physicalName(logicalIdPrefix) }))).SecretString!;
  }
  const stripeClient = (key: string) => {
    const url = new URL(twin().urls.stripe);
    return new Stripe(key, { host: url.hostname, port: Number(url.port), protocol: 'http', maxNetworkRetries: 0 });
  };

  it('Stripe: an sk_test_ secret key, a pk_test_ publishable key, whsec_ signing secrets', async () => {
    const config = await twin().stripe.config();
    expect(config.secretKey).toMatch(/^sk_test_[A-Za-z0-9]{99}$/);
    expect(config.publishableKey).toMatch(/^pk_test_[A-Za-z0-9]{99}$/);
    // The key the payments and payouts functions read is the one the emulator takes.
    expect(await secret('StripeSecretKey')).toBe(config.secretKey);
    const platform = await secret('StripeWebhookSecret');
    const connect = await secret('StripeConnectWebhookSecret');
    expect(platform).toMatch(/^whsec_[A-Za-z0-9]{32}$/);
    expect(connect).toMatch(/^whsec_[A-Za-z0-9]{32}$/);
    expect(connect).not.toBe(platform);

    const stripe = stripeClient(config.secretKey);
    const customer = await stripe.customers.create({ email: `${marker}@example.com`, metadata: { marker } });
    expect(customer.id).toMatch(/^cus_/);

    // Refused as Stripe refuses them: the publishable key, and a secret key of another account.
    await expect(stripeClient(config.publishableKey).customers.list({ limit: 1 })).rejects.toMatchObject({
      type: 'StripePermissionError',
      statusCode: 403,
      message: expect.stringContaining('cannot be made with a publishable API key'),
    });
    const stranger = `sk_test_${'x'.repeat(99)}`;
    await expect(stripeClient(stranger).customers.list({ limit: 1 })).rejects.toMatchObject({
      type: 'StripeAuthenticationError',
      statusCode: 401,
      code: 'api_key_invalid',
      message: expect.stringContaining('Invalid API Key provided: sk_test_'),
    });

    // The customer's event reached the payments wing's route, which verified its signature with
    // the whsec_ secret it reads from the twin's Secrets Manager.
    await eventually(
      async () => (await twin().stripe.deliveries({ objectId: customer.id })).find((d) => d.url.endsWith('/webhooks/stripe') && d.status === 'delivered'),
      { what: `the delivery of ${customer.id}'s event to /webhooks/stripe`, timeoutMs: 20_000 },
    );
  });

  it('Replicate: an r8_ token of 37 letters and digits, taken by the official client; another refused', async () => {
    const token = await secret('ReplicateToken');
    expect(token).toMatch(/^r8_[A-Za-z0-9]{37}$/);
    const official = (auth: string) => new Replicate({ auth, baseUrl: `${twin().urls.replicate}/v1`, useFileOutput: false });
    expect(await official(token).accounts.current()).toMatchObject({ username: expect.any(String) });
    const stranger = `r8_${'x'.repeat(37)}`;
    await expect(official(stranger).accounts.current()).rejects.toMatchObject({ response: expect.objectContaining({ status: 401 }) });
  });
});
