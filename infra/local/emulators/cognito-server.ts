// The twin's Cognito process: cognito-local's own services and router, put together as its CLI
// does (cognito-local/lib/server/defaults.js), with these differences (decision 020):
// - codes are random (sign-up, resend, forgot password), never a fixed value;
// - each message Cognito would email (with the subject and body of the pool's CustomMessage
//   trigger when it has one) is sent to the twin's SES emulator as a real SendEmail, from the
//   pool's sender address to the person's email, so it shows on the Sent emails page;
// - ResendConfirmationCode, GlobalSignOut and AdminUserGlobalSignOut, which cognito-local lacks;
// - a disabled user can neither sign in nor refresh a session, as on Cognito;
// - an invited user's temporary password is checked before the new-password challenge, and a
//   challenge is answered only with the session Cognito issued for it (decision 040):
//   cognito-local asks neither, so anyone knowing an invited address could choose its password.
// Run by startCognito (cognito.ts) in a working directory holding `.cognito/config.json`, with
// the SES endpoint in COGNITO_SES_ENDPOINT (without it, sending a message fails saying so).
import { createPublicKey, randomInt, verify, type KeyObject } from 'node:crypto';
import { createRequire } from 'node:module';
import { SendEmailCommand, SESv2Client } from '@aws-sdk/client-sesv2';
import { CognitoError, InvalidParameterError, NotAuthorizedError, UserNotFoundError } from 'cognito-local/lib/errors';
import { Router, type Route } from 'cognito-local/lib/server/Router';
import { loadConfig } from 'cognito-local/lib/server/config';
import { createServer } from 'cognito-local/lib/server/server';
import { DateClock, LambdaService, TriggersService, type Services } from 'cognito-local/lib/services';
import { CognitoServiceFactoryImpl, type CognitoService } from 'cognito-local/lib/services/cognitoService';
import type { Context } from 'cognito-local/lib/services/context';
import { CryptoService } from 'cognito-local/lib/services/crypto';
import { StormDBDataStoreFactory } from 'cognito-local/lib/services/dataStore/stormDb';
import { selectAppropriateDeliveryMethod } from 'cognito-local/lib/services/messageDelivery/deliveryMethod';
import type { DeliveryDetails } from 'cognito-local/lib/services/messageDelivery/messageDelivery';
import type { Messages } from 'cognito-local/lib/services/messages';
import { JwtTokenGenerator } from 'cognito-local/lib/services/tokenGenerator';
import type { Triggers } from 'cognito-local/lib/services/triggers';
import { UserPoolServiceFactoryImpl, type User, type UserPoolService } from 'cognito-local/lib/services/userPoolService';
import { TWIN_CREDENTIALS, TWIN_REGION } from './ports';

type MessageSource = Parameters<Messages['deliver']>[1];

/** Where Cognito's own emails come from when the pool names no sender (COGNITO_DEFAULT). */
const COGNITO_DEFAULT_FROM = 'no-reply@verificationemail.com';

/** A six-digit code, as Cognito sends. */
function randomCode(): string {
  return String(randomInt(0, 1_000_000)).padStart(6, '0');
}

/** Cognito's masked destination in CodeDeliveryDetails: `p***@e***`. */
function maskEmail(address: string): string {
  const [local, domain = ''] = address.split('@');
  return `${local.slice(0, 1)}***@${domain.slice(0, 1)}***`;
}

/** What Cognito sends without a CustomMessage trigger: the pool's verification template, else a plain line. */
function defaultMessage(pool: UserPoolService, source: MessageSource, code: string, username: string): { subject: string; body: string } {
  const template = pool.options.VerificationMessageTemplate;
  if ((source === 'SignUp' || source === 'ResendCode') && template?.EmailMessage) {
    return { subject: template.EmailSubject ?? 'Your verification code', body: template.EmailMessage.replaceAll('{####}', code) };
  }
  if (source === 'AdminCreateUser') {
    return { subject: 'Your temporary password', body: `Your username is ${username} and temporary password is ${code}.` };
  }
  return { subject: 'Your verification code', body: `Your verification code is ${code}.` };
}

/** Sends every email message through SES (SMS: the product sends none; they are dropped with a note). */
class SesMessages implements Messages {
  constructor(
    private readonly triggers: Triggers,
    private readonly cognito: () => CognitoService,
    private readonly ses: SESv2Client | undefined,
  ) {}

  async deliver(
    ctx: Context,
    source: MessageSource,
    clientId: string | null,
    userPoolId: string,
    user: User,
    code: string,
    clientMetadata: Record<string, string> | undefined,
    deliveryDetails: DeliveryDetails,
  ): Promise<void> {
    if (deliveryDetails.DeliveryMedium !== 'EMAIL') {
      ctx.logger.warn(`no SMS on the twin: a ${source} message was not delivered`);
      return;
    }
    if (!this.ses) {
      throw new CognitoError('CodeDeliveryFailureException', `cannot deliver the ${source} message: this Cognito was started without an SES endpoint (startCognito's sesEndpoint)`);
    }
    const pool = await this.cognito().getUserPool(ctx, userPoolId);
    const custom = this.triggers.enabled('CustomMessage')
      ? await this.triggers.customMessage(ctx, {
          clientId: clientId ?? 'CLIENT_ID_NOT_APPLICABLE',
          clientMetadata,
          code,
          source: `CustomMessage_${source}`,
          userAttributes: user.Attributes,
          username: user.Username,
          userPoolId,
        })
      : null;
    const fallback = defaultMessage(pool, source, code, user.Username);
    const subject = custom?.emailSubject || fallback.subject;
    const body = custom?.emailMessage || fallback.body;
    // Cognito sends the message as the email's HTML body when it is HTML.
    const isHtml = /<[a-z][\s\S]*>/i.test(body);
    const email = new SendEmailCommand({
      FromEmailAddress: pool.options.EmailConfiguration?.From ?? COGNITO_DEFAULT_FROM,
      Destination: { ToAddresses: [deliveryDetails.Destination] },
      Content: { Simple: { Subject: { Data: subject }, Body: isHtml ? { Html: { Data: body } } : { Text: { Data: body } } } },
    });
    try {
      await this.ses.send(email);
    } catch (err) {
      // As Cognito answers when its email cannot be sent.
      throw new CognitoError('CodeDeliveryFailureException', `the ${source} message could not be sent through SES: ${(err as Error).message}`);
    }
  }
}

const cognitoRequire = createRequire(require.resolve('cognito-local/package.json'));
const publicKey: KeyObject = createPublicKey({ key: cognitoRequire('./lib/keys/cognitoLocal.public.json').jwk, format: 'jwk' });

/** The claims of a valid, unexpired access token of this Cognito; NotAuthorizedException otherwise. */
function accessTokenClaims(token: unknown, now: Date): { sub: string; client_id: string } {
  const parts = typeof token === 'string' ? token.split('.') : [];
  if (parts.length !== 3 || !verify('RSA-SHA256', Buffer.from(`${parts[0]}.${parts[1]}`), publicKey, Buffer.from(parts[2], 'base64url'))) {
    throw new NotAuthorizedError('Invalid Access Token');
  }
  const claims = JSON.parse(Buffer.from(parts[1], 'base64url').toString('utf8'));
  if (claims.token_use !== 'access') throw new NotAuthorizedError('Invalid Access Token');
  if (typeof claims.exp !== 'number' || claims.exp * 1000 <= now.getTime()) throw new NotAuthorizedError('Access Token has expired');
  return claims;
}

/** Ends every session of a user: the refresh tokens it holds stop working. */
async function revokeRefreshTokens(ctx: Context, services: Services, pool: UserPoolService, user: User): Promise<void> {
  await pool.saveUser(ctx, { ...user, RefreshTokens: [], UserLastModifiedDate: services.clock.get() });
}

/** The calls cognito-local lacks, in its Route shape (ctx, request) -> response. */
function extraTargets(services: Services): Record<string, Route> {
  return {
    async ResendConfirmationCode(ctx, req) {
      const pool = await services.cognito.getUserPoolForClientId(ctx, req.ClientId);
      const client = await services.cognito.getAppClient(ctx, req.ClientId);
      if (!client) throw new NotAuthorizedError();
      const user = await pool.getUserByUsername(ctx, String(req.Username ?? ''));
      if (!user || user.UserStatus !== 'UNCONFIRMED') {
        // With PreventUserExistenceErrors Cognito answers as if it had sent a code, so the answer
        // reveals neither whether the account exists nor whether it is confirmed.
        if (client.PreventUserExistenceErrors !== 'ENABLED') {
          throw user ? new InvalidParameterError('User is already confirmed.') : new UserNotFoundError('Username/client id combination not found.');
        }
        return { CodeDeliveryDetails: { AttributeName: 'email', DeliveryMedium: 'EMAIL', Destination: maskEmail(String(req.Username ?? '')) } };
      }
      const details = selectAppropriateDeliveryMethod(pool.options.AutoVerifiedAttributes ?? [], user);
      if (!details) throw new InvalidParameterError('User has no attribute matching desired auto verified attributes');
      const code = services.otp();
      await services.messages.deliver(ctx, 'ResendCode', req.ClientId, pool.options.Id, user, code, req.ClientMetadata, details);
      // The new code replaces the old one, which stops working.
      await pool.saveUser(ctx, { ...user, ConfirmationCode: code, UserLastModifiedDate: services.clock.get() });
      return { CodeDeliveryDetails: { ...details, Destination: maskEmail(details.Destination) } };
    },

    async GlobalSignOut(ctx, req) {
      const claims = accessTokenClaims(req.AccessToken, services.clock.get());
      const pool = await services.cognito.getUserPoolForClientId(ctx, claims.client_id);
      const user = await pool.getUserByUsername(ctx, claims.sub);
      if (!user) throw new NotAuthorizedError('User does not exist.');
      await revokeRefreshTokens(ctx, services, pool, user);
      return {};
    },

    async AdminUserGlobalSignOut(ctx, req) {
      const pool = await services.cognito.getUserPool(ctx, req.UserPoolId);
      const user = await pool.getUserByUsername(ctx, String(req.Username ?? ''));
      if (!user) throw new UserNotFoundError('User does not exist.');
      await revokeRefreshTokens(ctx, services, pool, user);
      return {};
    },
  };
}

/**
 * InitiateAuth and AdminInitiateAuth refuse a disabled user as Cognito does ("User is
 * disabled."): a sign-in with the right password, and a refresh. A wrong password gets the
 * usual answer, so the state of an account shows only to someone holding its password.
 */
function refusingDisabledUsers(services: Services, route: Route): Route {
  return async (ctx, req) => {
    // cognito-local finds the pool of both calls by their client id.
    const pool = await services.cognito.getUserPoolForClientId(ctx, req.ClientId);
    const params: Record<string, string> = req.AuthParameters ?? {};
    let user: User | null = null;
    if (params.REFRESH_TOKEN) user = await pool.getUserByRefreshToken(ctx, params.REFRESH_TOKEN);
    else if (params.USERNAME) {
      const found = await pool.getUserByUsername(ctx, params.USERNAME);
      if (found && found.Password === params.PASSWORD) user = found;
    }
    if (user && user.Enabled === false) throw new NotAuthorizedError('User is disabled.');
    return route(ctx, req);
  };
}

/**
 * ConfirmSignUp proves the person holds the address the code was mailed to, so Cognito marks it
 * verified (`email_verified` true, before the post-confirmation trigger runs and in every token
 * after). cognito-local only confirms the user; the twin sets the attribute first when the code
 * is right, then lets cognito-local confirm as usual.
 */
function verifyingEmail(services: Services, route: Route): Route {
  return async (ctx, req) => {
    const pool = await services.cognito.getUserPoolForClientId(ctx, req.ClientId);
    const user = await pool.getUserByUsername(ctx, String(req.Username ?? ''));
    const emailVerified = (pool.options.AutoVerifiedAttributes ?? []).includes('email');
    if (emailVerified && user && user.UserStatus === 'UNCONFIRMED' && user.ConfirmationCode && user.ConfirmationCode === req.ConfirmationCode) {
      const Attributes = [...(user.Attributes ?? []).filter((a) => a.Name !== 'email_verified'), { Name: 'email_verified', Value: 'true' }];
      await pool.saveUser(ctx, { ...user, Attributes });
    }
    return route(ctx, req);
  };
}

/** How long a challenge's session lasts: Cognito's default (an app client's AuthSessionValidity, 3 minutes). */
const CHALLENGE_SESSION_MS = 3 * 60 * 1000;

/** The sessions of the challenges this Cognito issued, each for one user and one challenge. */
class ChallengeSessions {
  private readonly open = new Map<string, { username: string; challenge: string; until: number }>();

  constructor(private readonly now: () => number) {}

  /** Records the challenge an answer asks, if it asks one. */
  record(answer: unknown, username: string): void {
    const { ChallengeName, Session } = (answer ?? {}) as { ChallengeName?: string; Session?: string };
    if (!ChallengeName || !Session) return;
    const now = this.now();
    for (const [session, s] of this.open) if (s.until < now) this.open.delete(session);
    this.open.set(Session, { username, challenge: ChallengeName, until: now + CHALLENGE_SESSION_MS });
  }

  /** Whether `session` was issued for this user's `challenge` and is still open (a wrong code may be tried again). */
  isOpen(session: unknown, username: string, challenge: unknown): boolean {
    const open = typeof session === 'string' ? this.open.get(session) : undefined;
    return Boolean(open && open.until >= this.now() && open.username === username && open.challenge === challenge);
  }

  /** A session whose challenge was answered is used up. */
  close(session: string): void {
    this.open.delete(session);
  }
}

/**
 * InitiateAuth and AdminInitiateAuth as Cognito answers an invited user (FORCE_CHANGE_PASSWORD):
 * the temporary password must be right before the new-password challenge (cognito-local asks it
 * of anyone). Every challenge answered is recorded with its session.
 */
function checkingChallenges(services: Services, sessions: ChallengeSessions, route: Route): Route {
  return async (ctx, req) => {
    const pool = await services.cognito.getUserPoolForClientId(ctx, req.ClientId);
    const params: Record<string, string> = req.AuthParameters ?? {};
    const user = params.USERNAME ? await pool.getUserByUsername(ctx, params.USERNAME) : null;
    if (user?.UserStatus === 'FORCE_CHANGE_PASSWORD' && user.Password !== params.PASSWORD) throw new NotAuthorizedError('Incorrect username or password.');
    const answer = await route(ctx, req);
    if (user) sessions.record(answer, user.Username);
    return answer;
  };
}

/** RespondToAuthChallenge only with the session Cognito issued for this user's challenge, until it is answered. */
function answeringOwnSessions(services: Services, sessions: ChallengeSessions, route: Route): Route {
  return async (ctx, req) => {
    const pool = await services.cognito.getUserPoolForClientId(ctx, req.ClientId);
    const user = await pool.getUserByUsername(ctx, String(req.ChallengeResponses?.USERNAME ?? ''));
    if (!user || !sessions.isOpen(req.Session, user.Username, req.ChallengeName)) throw new NotAuthorizedError('Invalid session for the user, session is expired.');
    const answer = await route(ctx, req);
    sessions.close(String(req.Session));
    sessions.record(answer, user.Username);
    return answer;
  };
}

async function main(): Promise<void> {
  // cognito-local's own logger and AWS SDK (v2, for its Lambda client), as its CLI uses them.
  const pino = cognitoRequire('pino') as (options: { level: string }) => Parameters<typeof createServer>[1];
  const { Lambda } = cognitoRequire('aws-sdk') as { Lambda: new (config: unknown) => ConstructorParameters<typeof LambdaService>[1] };
  const logger = pino({ level: process.env.DEBUG ? 'debug' : 'info' });
  const ctx: Context = { logger };
  const config = await loadConfig(ctx, new StormDBDataStoreFactory('.cognito'));
  const clock = new DateClock();
  const dataStoreFactory = new StormDBDataStoreFactory('.cognito/db');
  const cognito = await new CognitoServiceFactoryImpl('.cognito/db', dataStoreFactory, new UserPoolServiceFactoryImpl(clock, dataStoreFactory)).create(
    ctx,
    config.UserPoolDefaults,
  );
  const triggers = new TriggersService(clock, cognito, new LambdaService(config.TriggerFunctions, new Lambda(config.LambdaClient)), new CryptoService(config.KMSConfig));
  const sesEndpoint = process.env.COGNITO_SES_ENDPOINT;
  const ses = sesEndpoint ? new SESv2Client({ endpoint: sesEndpoint, region: TWIN_REGION, credentials: { ...TWIN_CREDENTIALS } }) : undefined;
  const services: Services = {
    clock,
    cognito,
    config,
    messages: new SesMessages(triggers, () => cognito, ses),
    otp: randomCode,
    tokenGenerator: new JwtTokenGenerator(clock, triggers, config.TokenConfig),
    triggers,
  };
  const base = Router(services);
  const extra = extraTargets(services);
  const sessions = new ChallengeSessions(() => clock.get().getTime());
  const router = (target: string): Route => {
    if (extra[target]) return extra[target];
    if (target === 'InitiateAuth' || target === 'AdminInitiateAuth') return refusingDisabledUsers(services, checkingChallenges(services, sessions, base(target)));
    if (target === 'RespondToAuthChallenge') return answeringOwnSessions(services, sessions, base(target));
    if (target === 'ConfirmSignUp') return verifyingEmail(services, base(target));
    return base(target);
  };
  const server = await createServer(router, logger, config.ServerConfig, services).start();
  const address = server.address();
  logger.info(`cognito-local (the twin's entry) on ${typeof address === 'object' && address ? `${address.address}:${address.port}` : address}`);
}

main().catch((err: unknown) => {
  console.error(err instanceof CognitoError ? `${err.code}: ${err.message}` : err);
  process.exit(1);
});
