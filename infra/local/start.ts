/**
 * `npm start`: the whole product on this machine. Starts the local twin on fixed ports,
 * prints where everything is, and stops cleanly on Ctrl-C.
 */
import { DEFAULT_PORTS, startTwin } from './twin';
import { ONBOARDING_TEST_VALUES, spacedNumber } from './emulators/stripe';
import { otpauthUri } from './totp';

async function main() {
  const started = Date.now();
  console.log('Starting the local twin (DynamoDB Local, S3, SES, Cognito, Replicate, Stripe, the API and both sites)...');
  const twin = await startTwin({
    ports: DEFAULT_PORTS,
    log: (line) => console.log(`  ${line}`),
    // Slow enough for the create page's progress to show.
    replicateLatency: { startingMs: 1500, processingMs: 4000 },
    admin: process.env.TWIN_ADMIN_PASSWORD
      ? { email: process.env.TWIN_ADMIN_EMAIL ?? 'admin@humanly.local', password: process.env.TWIN_ADMIN_PASSWORD }
      : undefined,
  });
  const missing = twin.unsupported();
  console.log(`
Humanly is running (ready in ${((Date.now() - started) / 1000).toFixed(1)} s):

  Public site        ${twin.urls.web}
  Waitlist           ${twin.urls.web}/first-200
  Review console     ${twin.urls.admin}
    sign in as       ${twin.admin.email}
    password         ${twin.admin.password}
    two-factor key   ${twin.admin.totpSecret}
                     (add it to an authenticator app: ${otpauthUri(twin.admin.totpSecret, twin.admin.email)}
                      or print the current code: npx tsx infra/local/totp.ts ${twin.admin.totpSecret})
  API                ${twin.urls.api}
  Sent emails        ${twin.urls.mail}

  Emulators: DynamoDB ${twin.urls.dynamodb} · S3 ${twin.urls.s3} · SES ${twin.urls.ses} · Cognito ${twin.urls.cognito}
             Replicate ${twin.urls.replicate} (local previews, never AI output; the official replicate client and curl drive it)
               API token     ${twin.replicate.token} (account ${twin.replicate.account})
               curl -H 'Authorization: Bearer ${twin.replicate.token}' ${twin.urls.replicate}/v1/trainings
             Stripe ${twin.urls.stripe} (test mode; the official stripe client and curl drive it)
               secret key    ${twin.stripe.secretKey}
               publishable   ${twin.stripe.publishableKey}
${webhookSecretLines(twin.stripeWebhookSecrets)}               test cards    ${twin.stripe.testCards.map((c) => `${spacedNumber(c.number)} ${c.description}`).join('\n                             ')}
               any future expiry, any CVC; payouts onboarding (Connect): SSN last 4 ${ONBOARDING_TEST_VALUES.ssnLast4},
               routing ${ONBOARDING_TEST_VALUES.routingNumber}, account ${ONBOARDING_TEST_VALUES.accountNumber} (${ONBOARDING_TEST_VALUES.failingAccountNumbers.join(' and ')} fail payouts);
               Identity: the verification page takes any photo and lets you pick the outcome (verified,
               document unreadable or expired, selfie unlike the document, under 18);
               renewals happen when the clock moves:
               curl -X POST ${twin.urls.stripe}/_emulator/clock/advance -H 'content-type: application/json' -d '{"days":31}'
  Scheduled rules run only when asked: curl -X POST ${twin.urls.control}/_twin/schedules/<rule id prefix>
    (MonthlyCloseSchedule?time=<ISO time> closes the month before that time; LikenessSchedule carries out
    removals whose 5-minute local notice ended and ends contracts past their term)
${missing.length ? `\n  Not served by the twin: ${missing.join('; ')}\n` : ''}
Press Ctrl-C to stop.
`);

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    console.log(`\n${signal}: stopping the twin...`);
    await twin.stop();
    console.log('Stopped.');
    process.exit(0);
  };
  process.on('SIGINT', () => void stop('SIGINT'));
  process.on('SIGTERM', () => void stop('SIGTERM'));
}

/** The signing secrets of the twin's own webhook endpoints, one line each (none when the template has none). */
function webhookSecretLines(secrets: { platform?: string; connect?: string; identity?: string }): string {
  const lines = [
    secrets.platform && `               webhook secret ${secrets.platform} (POST /webhooks/stripe)`,
    secrets.connect && `               Connect secret ${secrets.connect} (POST /webhooks/stripe-connect)`,
    secrets.identity && `               Identity secret ${secrets.identity} (POST /webhooks/stripe-identity)`,
  ].filter(Boolean);
  return lines.map((l) => `${l}\n`).join('');
}

main().catch((err) => {
  console.error(`The twin could not start: ${err instanceof Error ? err.stack ?? err.message : String(err)}`);
  process.exit(1);
});
