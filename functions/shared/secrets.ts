// Secrets from Secrets Manager, read once per container (Stripe keys, webhook signing secrets,
// the identity encryption key).
import { GetSecretValueCommand, SecretsManagerClient } from '@aws-sdk/client-secrets-manager';

const secrets = new Map<string, Promise<string>>();

/** A secret's string (the secret's ARN or name), cached per container; a failed read is tried again next time. */
export function secretValue(secretId: string, what: string): Promise<string> {
  let value = secrets.get(secretId);
  if (!value) {
    value = (async () => {
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
