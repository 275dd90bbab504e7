import type { Construct } from 'constructs';
import { DEFAULT_INDUSTRY_CLASSIFIER_MODEL } from '../../../events/industries';
import { DEFAULT_MODEL_FAILURES_PER_DAY, DEFAULT_REPLICATE_CREATIONS_PER_MINUTE } from '../../../events/generation-values';
import { PAID_PLAN_IDS, type PaidPlanId } from '../../../events/payment-values';
import { DEFAULT_PAYOUT_MINIMUM_CENTS } from '../../../events/payout-values';
import { DEFAULT_WAITLIST_CAPACITY } from '../../../events/product';
import { DEFAULT_PROMOTIONAL_ROYALTY_CAP_CENTS, REMOVAL_NOTICE_SECONDS } from '../../../events/royalty-values';
import {
  DEFAULT_MODEL_OWNER,
  DEFAULT_TRAINER,
  DEFAULT_TRAINER_INPUTS,
  DEFAULT_TRAINER_VERSION,
  DEFAULT_TRAINING_HARDWARE,
  DEFAULT_TRAINING_IMAGE_SIZE,
  DEFAULT_TRAINING_STEPS,
  HARDWARE_MICROS_PER_SECOND,
  MAX_TRAINING_STEPS,
  MIN_TRAINING_STEPS,
  TRAINER_LICENCES,
  type TrainerInputs,
  type TrainerLicence,
} from '../../../events/training-values';
import { REPLICATE_VERSION_REF } from '../../../events/replicate-values';

/**
 * Everything that differs between stages comes from CDK context (cdk.json, `-c key=value`)
 * or, for secrets, from Secrets Manager by name. Nothing stage-specific lives in the code.
 */
export interface StageConfig {
  stage: string;
  /** Address our emails come from; its domain must be verified in SES for the stage. */
  senderEmail: string;
  /** Address shown on the site for questions; receives contact-form messages. */
  contactEmail: string;
  /** Receives the alarms' notifications (defaults to the contact address). */
  alarmEmail: string;
  /** Custom domain of the public site, if the stage has one (otherwise the CloudFront domain). */
  domainName?: string;
  /** Public site URL used in emails; defaults to the site's CloudFront address. */
  siteUrl?: string;
  /** Extra browser origins allowed to call the API (the twin passes its local sites). */
  siteOrigins: string[];
  waitlistCapacity: number;
  /** Google sign-in: client id from context, secret from Secrets Manager by this name. */
  googleClientId?: string;
  googleClientSecretName?: string;
  /** Prefix of the user pool's domain (`<prefix>.auth.<region>.amazoncognito.com`), used with Google. */
  authDomainPrefix: string;
  /** Cognito emails codes and invitations from `senderEmail` through SES (needs the domain verified). */
  authEmailFromSender: boolean;
  /** Secrets Manager name of the Replicate API token (image generation). */
  replicateTokenSecretName?: string;
  /**
   * The language model on Replicate ('owner/name') that checks prompts against a talent's
   * excluded industries after the word lists (decision 039). Context `industryClassifierModel`,
   * default meta/meta-llama-3-70b-instruct; `none` turns it off, on any stage but prod.
   */
  industryClassifierModel?: string;
  /** Keep data stores when the stack is deleted (on unless the stage says otherwise). */
  retainData: boolean;
  /** Skip uploading the built sites (tests and the twin synthesize without them). */
  deploySites: boolean;
  /**
   * Instances reserved for the photo validator, so it cannot starve the API (default 5; 0 reserves
   * none, for a new account whose whole concurrency is 10: Lambda keeps 10 unreserved).
   */
  validatorConcurrency?: number;
  /** WAF: requests per IP per 5 minutes to the public POST routes, and to anything. */
  wafPostLimit: number;
  wafRequestLimit: number;
  /**
   * The user pool's WAF (decision 040): requests per IP per 5 minutes that make Cognito email a
   * code (SignUp, ResendConfirmationCode, ForgotPassword; context `cognitoCodeLimit`), and
   * sign-ins and code confirmations (InitiateAuth, RespondToAuthChallenge, ConfirmSignUp,
   * ConfirmForgotPassword; context `cognitoSignInLimit`).
   */
  cognitoCodeLimit: number;
  cognitoSignInLimit: number;
  /**
   * Cognito's threat protection (decision 040): `enforced` and `audit` put the pool on the Plus
   * feature plan (paid per active user), `off` keeps it on Essentials. Context `threatProtection`,
   * default `enforced` on the prod stage and `audit` elsewhere.
   */
  threatProtection: ThreatProtection;
  /** A likeness removal's notice, in seconds (30 days; the twin shortens it so it can be seen end to end). */
  removalNoticeSeconds: number;
  /**
   * Generations of one client the image model or its safety checker may fail in a UTC day before
   * the client's starts are refused until 00:00 UTC (context `modelFailuresPerDay`, default 20;
   * decision 038).
   */
  modelFailuresPerDay: number;
  /**
   * Replicate's prediction creations a minute per account, the rate generation starts are
   * admitted at (context `replicateCreationsPerMinute`, default 600; decision 065).
   */
  replicateCreationsPerMinute: number;
  /**
   * The cap on a talent's royalties from promotional credits per monthly statement, in whole
   * cents (context `promotionalRoyaltyCapCents`, default 2,500 = $25; 0 pays none; decision 037).
   */
  promotionalRoyaltyCapCents: number;
  /** Secrets Manager name of the Stripe secret key (payments); without it the stack makes a placeholder secret to fill in. */
  stripeSecretKeyName?: string;
  /** Secrets Manager name of the signing secret (`whsec_...`) of Stripe's webhook endpoint for `POST /webhooks/stripe`. */
  stripeWebhookSecretName?: string;
  /**
   * The Stripe price of each paid plan's subscription and of its extra credits (context
   * `stripePrices`, JSON `{"starter":{"monthly":"price_...","credit":"price_..."},...}`). Prices
   * come from here, never from the browser. Default: the twin's fixed ids (decision 042); the
   * prod stage must name its own.
   */
  stripePrices: StripePrices;
  /** What one generated image costs us at the model's provider, in micro-dollars (context `generationCostMicros`; docs/cost.md). */
  generationCostMicros: number;
  /**
   * The smallest payout transferred to a talent after a close, in whole cents (context
   * `payoutMinimumCents`, default 1,000 = $10); smaller amounts carry to the next statement.
   */
  payoutMinimumCents: number;
  /** Secrets Manager name of the signing secret of Stripe's Connect webhook endpoint for `POST /webhooks/stripe-connect`. */
  stripeConnectWebhookSecretName?: string;
  /** Secrets Manager name of the signing secret of Stripe's Identity webhook endpoint for `POST /webhooks/stripe-identity`. */
  stripeIdentityWebhookSecretName?: string;
  /** How talent's likeness models are trained on Replicate (docs/training.md, decision 046). */
  likenessTraining: LikenessTrainingSettings;
}

/**
 * The likeness model's trainer and its settings. Context `likenessTrainer` (`owner/name:version`,
 * default ostris/flux-dev-lora-trainer at the version the twin uses), `likenessTrainerInputs`
 * (JSON `{"images":"input_images","triggerWord":"trigger_word","steps":"steps"}`: the trainer's
 * input names), `likenessTrainingSteps` (default 1000), `likenessModelOwner` (the Replicate
 * account of the talent's private models; the twin's emulator: humanly), `likenessTrainingHardware`
 * (default gpu-h100), `likenessTrainingImageSize` (the crops' side, default 1024) and
 * `likenessTrainerLicence`: `non-commercial` (FLUX.1 [dev]'s licence, the default) or `commercial`.
 * The prod stage's Training stack refuses to build unless the licence is `commercial`: confirmed
 * for a paid service (decision 046).
 */
interface LikenessTrainingSettings {
  trainer: string;
  trainerVersion: string;
  inputs: TrainerInputs;
  steps: number;
  modelOwner: string;
  hardware: string;
  imageSize: number;
  licence: TrainerLicence;
}

function likenessTraining(ctx: (key: string) => unknown): LikenessTrainingSettings {
  const given = (key: string) => {
    const v = ctx(key);
    return v === undefined || v === '' ? undefined : v;
  };
  const trainer = String(given('likenessTrainer') ?? `${DEFAULT_TRAINER}:${DEFAULT_TRAINER_VERSION}`);
  const m = REPLICATE_VERSION_REF.exec(trainer);
  if (!m) throw new Error(`Context likenessTrainer must be a Replicate trainer 'owner/name:<64-hex version>', got ${JSON.stringify(trainer)}`);
  const rawInputs = given('likenessTrainerInputs');
  const inputs = (rawInputs === undefined ? DEFAULT_TRAINER_INPUTS : typeof rawInputs === 'string' ? JSON.parse(rawInputs) : rawInputs) as Partial<TrainerInputs>;
  for (const name of ['images', 'triggerWord', 'steps'] as const) {
    if (typeof inputs[name] !== 'string' || !/^[A-Za-z_][A-Za-z0-9_]*$/.test(inputs[name])) {
      throw new Error(`Context likenessTrainerInputs.${name} must name the trainer's input, got ${JSON.stringify(inputs[name])}`);
    }
  }
  const steps = atLeastOne('likenessTrainingSteps', given('likenessTrainingSteps'), DEFAULT_TRAINING_STEPS);
  if (steps < MIN_TRAINING_STEPS || steps > MAX_TRAINING_STEPS) throw new Error(`Context likenessTrainingSteps must be from ${MIN_TRAINING_STEPS} to ${MAX_TRAINING_STEPS}, got ${steps}`);
  const modelOwner = String(given('likenessModelOwner') ?? DEFAULT_MODEL_OWNER);
  if (!/^[A-Za-z0-9][A-Za-z0-9_-]*$/.test(modelOwner)) throw new Error(`Context likenessModelOwner must be a Replicate account name, got ${JSON.stringify(modelOwner)}`);
  const hardware = String(given('likenessTrainingHardware') ?? DEFAULT_TRAINING_HARDWARE);
  if (HARDWARE_MICROS_PER_SECOND[hardware] === undefined) {
    throw new Error(`Context likenessTrainingHardware must be one of ${Object.keys(HARDWARE_MICROS_PER_SECOND).join(', ')} (their prices are in events/training-values.ts), got ${JSON.stringify(hardware)}`);
  }
  const imageSize = atLeastOne('likenessTrainingImageSize', given('likenessTrainingImageSize'), DEFAULT_TRAINING_IMAGE_SIZE);
  const licence = String(given('likenessTrainerLicence') ?? 'non-commercial') as TrainerLicence;
  if (!TRAINER_LICENCES.includes(licence)) throw new Error(`Context likenessTrainerLicence must be one of ${TRAINER_LICENCES.join(', ')}, got ${JSON.stringify(licence)}`);
  return { trainer: m[1], trainerVersion: m[2], inputs: { images: inputs.images!, triggerWord: inputs.triggerWord!, steps: inputs.steps! }, steps, modelOwner, hardware, imageSize, licence };
}

/** Stripe price ids per paid plan: the monthly subscription price and the one-credit price of packs. */
export type StripePrices = Record<PaidPlanId, { monthly: string; credit: string }>;

/** The twin's prices (infra/local/emulators/stripe/catalog.ts names them the same way). */
export const DEFAULT_STRIPE_PRICES: StripePrices = Object.fromEntries(
  PAID_PLAN_IDS.map((plan) => [plan, { monthly: `price_humanly_${plan}_monthly`, credit: `price_humanly_${plan}_credit` }]),
) as StripePrices;

function stripePrices(value: unknown, stage: string): StripePrices {
  if (value === undefined || value === '') {
    if (stage === 'prod') throw new Error('Context stripePrices must name the live Stripe prices on the prod stage');
    return DEFAULT_STRIPE_PRICES;
  }
  const parsed: unknown = typeof value === 'string' ? JSON.parse(value) : value;
  const out = {} as StripePrices;
  for (const plan of PAID_PLAN_IDS) {
    const entry = (parsed as Record<string, { monthly?: unknown; credit?: unknown }> | null)?.[plan];
    if (!entry || typeof entry.monthly !== 'string' || !entry.monthly.startsWith('price_') || typeof entry.credit !== 'string' || !entry.credit.startsWith('price_')) {
      throw new Error(`Context stripePrices.${plan} must be {"monthly":"price_...","credit":"price_..."}, got ${JSON.stringify(entry)}`);
    }
    out[plan] = { monthly: entry.monthly, credit: entry.credit };
  }
  return out;
}

/** One image of the default model (FLUX dev on Replicate, $0.025 an image), in micro-dollars. */
export const DEFAULT_GENERATION_COST_MICROS = 25_000;

const THREAT_PROTECTION = ['off', 'audit', 'enforced'] as const;
export type ThreatProtection = (typeof THREAT_PROTECTION)[number];

function threatProtection(value: unknown, stage: string): ThreatProtection {
  const mode = value === undefined || value === '' ? (stage === 'prod' ? 'enforced' : 'audit') : String(value);
  if (!(THREAT_PROTECTION as readonly string[]).includes(mode)) {
    throw new Error(`Context threatProtection must be one of ${THREAT_PROTECTION.join(', ')}, got ${JSON.stringify(value)}`);
  }
  return mode as ThreatProtection;
}

const list = (value: unknown): string[] =>
  Array.isArray(value) ? value.map(String) : typeof value === 'string' && value ? value.split(',').map((s) => s.trim()) : [];

const bool = (value: unknown, fallback: boolean): boolean =>
  value === undefined ? fallback : value === true || value === 'true';

/**
 * A Cognito domain prefix: lowercase letters, digits and hyphens, not starting or ending with a
 * hyphen, without "aws", "amazon" or "cognito" (Cognito's rules). Default: humanly-<stage>.
 */
function authDomainPrefix(value: unknown, stage: string): string {
  const prefix = value ? String(value) : `humanly-${stage.toLowerCase().replace(/[^a-z0-9-]/g, '-')}`;
  if (!/^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/.test(prefix) || /aws|amazon|cognito/.test(prefix)) {
    throw new Error(
      `Context authDomainPrefix must be 1-63 lowercase letters, digits or inner hyphens, without "aws", "amazon" or "cognito", got ${JSON.stringify(prefix)}`,
    );
  }
  return prefix;
}

/** A Replicate model 'owner/name', or `none` (undefined) outside prod. */
function industryClassifierModel(value: unknown, stage: string): string | undefined {
  if (value === undefined || value === '') return DEFAULT_INDUSTRY_CLASSIFIER_MODEL;
  const model = String(value);
  if (model === 'none') {
    if (stage === 'prod') throw new Error('Context industryClassifierModel cannot be none on the prod stage: production prompts are always checked by the classifier');
    return undefined;
  }
  if (!/^[A-Za-z0-9._-]+\/[A-Za-z0-9._-]+$/.test(model)) {
    throw new Error(`Context industryClassifierModel must be a Replicate model 'owner/name' (or none outside prod), got ${JSON.stringify(value)}`);
  }
  return model;
}

/** A whole number of at least 1 from context `key`. */
function atLeastOne(key: string, value: unknown, fallback: number): number {
  const n = Number(value ?? fallback);
  if (value === '' || !Number.isSafeInteger(n) || n < 1) throw new Error(`Context ${key} must be a whole number of at least 1, got ${String(value)}`);
  return n;
}

function wholeSeconds(value: unknown, fallback: number): number {
  const n = Number(value ?? fallback);
  if (!Number.isInteger(n) || n < 1) throw new Error(`Context removalNoticeSeconds must be a whole number of seconds of at least 1, got ${String(value)}`);
  return n;
}

function wholeCents(key: string, value: unknown, fallback: number, unit = 'cents'): number {
  const n = Number(value ?? fallback);
  if (value === '' || !Number.isSafeInteger(n) || n < 0) throw new Error(`Context ${key} must be a whole number of ${unit} of 0 or more, got ${String(value)}`);
  return n;
}

export function stageConfig(scope: Construct): StageConfig {
  const ctx = (key: string) => scope.node.tryGetContext(key);
  const stage = String(ctx('stage') ?? 'dev');
  const capacity = Number(ctx('waitlistCapacity') ?? DEFAULT_WAITLIST_CAPACITY);
  if (!Number.isInteger(capacity) || capacity < 1) {
    throw new Error(`Context waitlistCapacity must be a positive whole number, got ${ctx('waitlistCapacity')}`);
  }
  const validatorConcurrency = Number(ctx('validatorConcurrency') ?? 5);
  if (!Number.isInteger(validatorConcurrency) || validatorConcurrency < 0) {
    throw new Error(`Context validatorConcurrency must be a whole number of instances (0 for none), got ${ctx('validatorConcurrency')}`);
  }
  const perFiveMinutes = (key: string, fallback: number) => {
    const n = Number(ctx(key) ?? fallback);
    // WAF's rate-based rules accept 10 to 2,000,000,000 requests per window.
    if (!Number.isInteger(n) || n < 10) throw new Error(`Context ${key} must be a whole number of requests of at least 10, got ${ctx(key)}`);
    return n;
  };
  return {
    stage,
    senderEmail: String(ctx('senderEmail') ?? 'hello@humanly.example'),
    contactEmail: String(ctx('contactEmail') ?? ctx('senderEmail') ?? 'hello@humanly.example'),
    alarmEmail: String(ctx('alarmEmail') ?? ctx('contactEmail') ?? ctx('senderEmail') ?? 'hello@humanly.example'),
    domainName: ctx('domainName') || undefined,
    siteUrl: ctx('siteUrl') || undefined,
    siteOrigins: list(ctx('siteOrigins')),
    waitlistCapacity: capacity,
    googleClientId: ctx('googleClientId') || undefined,
    googleClientSecretName: ctx('googleClientSecretName') || undefined,
    authDomainPrefix: authDomainPrefix(ctx('authDomainPrefix'), stage),
    authEmailFromSender: bool(ctx('authEmailFromSender'), true),
    replicateTokenSecretName: ctx('replicateTokenSecretName') || undefined,
    industryClassifierModel: industryClassifierModel(ctx('industryClassifierModel'), stage),
    retainData: bool(ctx('retainData'), stage === 'prod'),
    deploySites: bool(ctx('deploySites'), true),
    validatorConcurrency: validatorConcurrency === 0 ? undefined : validatorConcurrency,
    wafPostLimit: perFiveMinutes('wafPostLimit', 100),
    wafRequestLimit: perFiveMinutes('wafRequestLimit', 2000),
    cognitoCodeLimit: perFiveMinutes('cognitoCodeLimit', 10),
    cognitoSignInLimit: perFiveMinutes('cognitoSignInLimit', 100),
    threatProtection: threatProtection(ctx('threatProtection'), stage),
    removalNoticeSeconds: wholeSeconds(ctx('removalNoticeSeconds'), REMOVAL_NOTICE_SECONDS),
    modelFailuresPerDay: atLeastOne('modelFailuresPerDay', ctx('modelFailuresPerDay'), DEFAULT_MODEL_FAILURES_PER_DAY),
    replicateCreationsPerMinute: atLeastOne('replicateCreationsPerMinute', ctx('replicateCreationsPerMinute'), DEFAULT_REPLICATE_CREATIONS_PER_MINUTE),
    promotionalRoyaltyCapCents: wholeCents('promotionalRoyaltyCapCents', ctx('promotionalRoyaltyCapCents'), DEFAULT_PROMOTIONAL_ROYALTY_CAP_CENTS),
    stripeSecretKeyName: ctx('stripeSecretKeyName') || undefined,
    stripeWebhookSecretName: ctx('stripeWebhookSecretName') || undefined,
    stripePrices: stripePrices(ctx('stripePrices'), stage),
    generationCostMicros: wholeCents('generationCostMicros', ctx('generationCostMicros'), DEFAULT_GENERATION_COST_MICROS, 'micro-dollars'),
    payoutMinimumCents: wholeCents('payoutMinimumCents', ctx('payoutMinimumCents'), DEFAULT_PAYOUT_MINIMUM_CENTS),
    stripeConnectWebhookSecretName: ctx('stripeConnectWebhookSecretName') || undefined,
    stripeIdentityWebhookSecretName: ctx('stripeIdentityWebhookSecretName') || undefined,
    likenessTraining: likenessTraining(ctx),
  };
}
