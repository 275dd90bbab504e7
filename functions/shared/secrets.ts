// Secrets from Secrets Manager, read once per container (Stripe keys, webhook signing secrets,
// the identity encryption key).
//
// The SDK's client is loaded at the first read, not with the module: many functions import a
// module that may need a secret (the Replicate or Stripe client) on paths they seldom take, and
// a read is a network call anyway (decision 064).

const secrets = new Map<string, Promise<string>>();

/** A secret's string (the secret's ARN or name), cached per container; a failed read is tried again next time. */
export function secretValue(secretId: string, what: string): Promise<string> {
  let value = secrets.get(secretId);
  if (!value) {
    value = (async () => {
      const { GetSecretValueCommand, SecretsManagerClient } = await import('@aws-sdk/client-secrets-manager');
      const answer = await new SecretsManagerClient({}).send(new GetSecretValueCommand({ SecretId: secretId }));
      const text = answer.SecretString?.trim();
      if (!text) throw new Error(`The ${what} secret holds no string value`);
      return text;
    })();
    value.catch(() => secrets.delete(secretId));
    secrets.set(secretId, value);
  }
  return value;
}
