// Secrets Manager on the twin: every AWS::SecretsManager::Secret of the template, with its value
// (`SecretString` as given, `GenerateSecretString` as a fresh random value per twin, in the
// provider's own shape for the credentials the emulators take: PROVIDER_CREDENTIALS), served to
// the functions' GetSecretValue by the control plane (AWS_ENDPOINT_URL_SECRETS_MANAGER).
import { randomBytes, randomInt } from 'node:crypto';
import { LOCAL_ACCOUNT, LOCAL_REGION, resourcesOfType, type CfnTemplate, type Resolver } from '../template';

interface GenerateSecretString {
  PasswordLength?: number;
  ExcludeCharacters?: string;
  ExcludeLowercase?: boolean;
  ExcludeUppercase?: boolean;
  ExcludeNumbers?: boolean;
  ExcludePunctuation?: boolean;
  IncludeSpace?: boolean;
  SecretStringTemplate?: string;
  GenerateStringKey?: string;
}

interface LocalSecret {
  logicalId: string;
  name: string;
  arn: string;
  value: string;
  versionId: string;
  created: Date;
}

const LOWER = 'abcdefghijklmnopqrstuvwxyz';
const UPPER = LOWER.toUpperCase();
const DIGITS = '0123456789';
const PUNCTUATION = '!"#$%&\'()*+,-./:;<=>?@[\\]^_`{|}~';

/** A random password as Secrets Manager's GenerateSecretString makes one (default 32 characters). */
export function generatePassword(spec: GenerateSecretString = {}): string {
  let alphabet =
    (spec.ExcludeLowercase ? '' : LOWER) +
    (spec.ExcludeUppercase ? '' : UPPER) +
    (spec.ExcludeNumbers ? '' : DIGITS) +
    (spec.ExcludePunctuation ? '' : PUNCTUATION) +
    (spec.IncludeSpace ? ' ' : '');
  if (spec.ExcludeCharacters) alphabet = [...alphabet].filter((c) => !spec.ExcludeCharacters!.includes(c)).join('');
  if (!alphabet) throw new Error('GenerateSecretString excludes every character');
  const length = spec.PasswordLength ?? 32;
  return Array.from({ length }, () => alphabet[randomInt(alphabet.length)]).join('');
}

const alphanumeric = (length: number) => generatePassword({ ExcludePunctuation: true, PasswordLength: length });

/** A credential of another provider that the template keeps in Secrets Manager. */
export interface ProviderCredential {
  /** The secret's logical id starts with this (as the twin finds it: `LocalSecrets.valueOf`). */
  logicalIdPrefix: string;
  what: string;
  /** The value's shape, as the provider issues it. */
  pattern: RegExp;
  /** A fresh value of that shape. */
  make: () => string;
}

/**
 * The credentials the twin's emulators take, drawn per twin in the shape the providers issue
 * (the template can only ask for a random password, which looks like nobody's key): a Stripe
 * test-mode secret key (`sk_test_` and 99 letters and digits, 107 characters as Stripe's), the
 * signing secrets of Stripe's webhook endpoints (`whsec_` and 32), a Replicate API token (`r8_`
 * and 37). Each emulator refuses any other value, as the provider does.
 */
export const PROVIDER_CREDENTIALS: readonly ProviderCredential[] = [
  { logicalIdPrefix: 'StripeSecretKey', what: 'Stripe secret key', pattern: /^sk_test_[A-Za-z0-9]{99}$/, make: () => `sk_test_${alphanumeric(99)}` },
  { logicalIdPrefix: 'StripeWebhookSecret', what: "Stripe webhook endpoint's signing secret", pattern: /^whsec_[A-Za-z0-9]{32}$/, make: () => `whsec_${alphanumeric(32)}` },
  {
    logicalIdPrefix: 'StripeIdentityWebhookSecret',
    what: "Stripe Identity webhook endpoint's signing secret",
    pattern: /^whsec_[A-Za-z0-9]{32}$/,
    make: () => `whsec_${alphanumeric(32)}`,
  },
  {
    logicalIdPrefix: 'StripeConnectWebhookSecret',
    what: "Stripe Connect webhook endpoint's signing secret",
    pattern: /^whsec_[A-Za-z0-9]{32}$/,
    make: () => `whsec_${alphanumeric(32)}`,
  },
  { logicalIdPrefix: 'ReplicateToken', what: 'Replicate API token', pattern: /^r8_[A-Za-z0-9]{37}$/, make: () => `r8_${alphanumeric(37)}` },
];

/** The provider credential a secret of this logical id holds (undefined for any other secret). */
function providerCredential(logicalId: string): ProviderCredential | undefined {
  return PROVIDER_CREDENTIALS.find((c) => logicalId.startsWith(c.logicalIdPrefix));
}

class SecretNotFoundError extends Error {
  constructor(id: string) {
    super(`Secrets Manager can't find the specified secret: ${id}`);
    this.name = 'ResourceNotFoundException';
  }
}

export class LocalSecrets {
  private readonly secrets: LocalSecret[] = [];

  /** Gives each secret its ARN (its Ref, as in CloudFormation) and its value. */
  constructor(template: CfnTemplate, resolver: Resolver) {
    for (const [logicalId, r] of resourcesOfType(template, 'AWS::SecretsManager::Secret')) {
      const props = resolver.resolve(r.Properties ?? {});
      const name = String(props.Name ?? logicalId);
      // Secrets Manager appends six random characters to a secret's ARN.
      const arn = `arn:aws:secretsmanager:${LOCAL_REGION}:${LOCAL_ACCOUNT}:secret:${name}-${randomBytes(3).toString('hex')}`;
      let value: string;
      if (typeof props.SecretString === 'string') value = props.SecretString;
      else {
        const spec = (props.GenerateSecretString ?? {}) as GenerateSecretString;
        const credential = spec.SecretStringTemplate ? undefined : providerCredential(logicalId);
        const password = credential ? credential.make() : generatePassword(spec);
        value =
          spec.SecretStringTemplate && spec.GenerateStringKey
            ? JSON.stringify({ ...JSON.parse(spec.SecretStringTemplate), [spec.GenerateStringKey]: password })
            : password;
      }
      this.secrets.push({ logicalId, name, arn, value, versionId: randomBytes(16).toString('hex'), created: new Date() });
      resolver.set(logicalId, { ref: arn, attrs: { Id: arn } });
    }
  }

  /** The value of the secret whose logical id starts with `prefix` (undefined when none). */
  valueOf(prefix: string): string | undefined {
    return this.secrets.find((s) => s.logicalId.startsWith(prefix))?.value;
  }

  /** Puts a value the twin makes itself (a test certificate chain) into the secret whose logical id starts with `prefix`; false when none. */
  setValue(prefix: string, value: string): boolean {
    const secret = this.secrets.find((s) => s.logicalId.startsWith(prefix));
    if (secret) secret.value = value;
    return Boolean(secret);
  }

  /** GetSecretValue: by ARN (with or without its random suffix) or by name. */
  getSecretValue(secretId: unknown, versionStage?: unknown): Record<string, unknown> {
    if (typeof secretId !== 'string' || secretId === '') {
      throw Object.assign(new Error('SecretId is required'), { name: 'InvalidParameterException' });
    }
    if (versionStage !== undefined && versionStage !== 'AWSCURRENT') throw new SecretNotFoundError(secretId);
    const secret = this.secrets.find((s) => s.arn === secretId || s.name === secretId || s.arn.replace(/-[0-9a-f]{6}$/, '') === secretId);
    if (!secret) throw new SecretNotFoundError(secretId);
    return {
      ARN: secret.arn,
      Name: secret.name,
      VersionId: secret.versionId,
      SecretString: secret.value,
      VersionStages: ['AWSCURRENT'],
      CreatedDate: secret.created.getTime() / 1000,
    };
  }

  /** The logical ids of the secrets served. */
  ids(): string[] {
    return this.secrets.map((s) => s.logicalId);
  }

  /** A secret's ARN, its physical id (undefined when the template has no such secret). */
  arnOf(logicalId: string): string | undefined {
    return this.secrets.find((s) => s.logicalId === logicalId)?.arn;
  }
}
