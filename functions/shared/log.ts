/**
 * Structured JSON logs. Request bodies, emails and photos are personal data: callers pass
 * only identifiers and outcomes, never payloads. As a second line of defence, anything that
 * looks like an email address is replaced before a line is written, an error's message and stack
 * included (they can quote the address they failed on: SES and Cognito messages do).
 */
import { METRICS_NAMESPACE_ENV, ROUTE_DIMENSION, type FailureMetric } from '../../events/metrics';

type Fields = Record<string, string | number | boolean | undefined | null>;

/** Something shaped like an address: `local@domain.tld`, however odd the local part. */
const EMAIL_LIKE = /[^\s"'<>(),;:@]+@[^\s"'<>(),;:@/]+\.[^\s"'<>(),;:@/]+/g;
const REDACTED_EMAIL = '[email]';

export function redactEmails(text: string): string {
  return text.replace(EMAIL_LIKE, REDACTED_EMAIL);
}

/** How much of a message or stack is kept: enough to find the line, not a whole payload. */
const MAX_MESSAGE = 500;
const MAX_STACK = 2_000;

/**
 * What is logged of an error: its name, message and stack (and its cause's), its code and HTTP
 * status when it has them. Messages can quote the address they failed on (SES and Cognito
 * messages do): they are redacted, as the whole line is before it is written (`write`).
 */
function errorFields(err: unknown): Fields {
  if (!(err instanceof Error)) return { error: typeof err };
  const e = err as Error & { code?: unknown; Code?: unknown; $metadata?: { httpStatusCode?: unknown } };
  const code = typeof e.code === 'string' || typeof e.code === 'number' ? e.code : typeof e.Code === 'string' ? e.Code : undefined;
  const status = e.$metadata?.httpStatusCode;
  const cause = e.cause instanceof Error ? e.cause : undefined;
  return {
    error: e.name,
    // Redacted here as well as on the whole line: there an address before an escaped line break would take the break with it.
    errorMessage: redactEmails(e.message.slice(0, MAX_MESSAGE)),
    stack: e.stack === undefined ? undefined : redactEmails(e.stack.slice(0, MAX_STACK)),
    code,
    status: typeof status === 'number' ? status : undefined,
    ...(cause ? { cause: cause.name, causeMessage: redactEmails(cause.message.slice(0, MAX_MESSAGE)) } : {}),
  };
}

function write(level: 'info' | 'warn' | 'error', message: string, fields?: Fields): void {
  const line = redactEmails(JSON.stringify({ level, message, time: new Date().toISOString(), ...fields }));
  if (level === 'error') console.error(line);
  else if (level === 'warn') console.warn(line);
  else console.log(line);
}

/** The namespace when the stack set none (tests, scripts): the metric is still written. */
const DEFAULT_NAMESPACE = 'Humanly';

interface MetricOptions {
  /** How many (default 1). */
  value?: number;
  /** The route (`METHOD /path`) it happened in: the metric is also counted per route. */
  route?: string;
  /** Identifiers to log beside it (never personal data). */
  fields?: Fields;
}

/**
 * Counts a failure that must alert somebody, as one log line in CloudWatch's embedded metric
 * format: CloudWatch Logs extracts the metric from the function's log, without an API call or a
 * resource per function, and the alarms watch it (events/metrics.ts, decision 041). The metric is
 * counted without dimensions (what the alarm watches) and, given a route, per route as well.
 * The namespace is the stack's (METRICS_NAMESPACE, set on every function by the stack); the
 * logger reads it itself, since it must never fail a function over its configuration.
 */
function metric(name: FailureMetric, options: MetricOptions = {}): void {
  const dimensions = options.route ? { [ROUTE_DIMENSION]: options.route } : {};
  const line = {
    level: 'info',
    message: `metric ${name}`,
    time: new Date().toISOString(),
    ...options.fields,
    ...dimensions,
    [name]: options.value ?? 1,
    _aws: {
      Timestamp: Date.now(),
      CloudWatchMetrics: [
        {
          Namespace: process.env[METRICS_NAMESPACE_ENV] || DEFAULT_NAMESPACE,
          Dimensions: options.route ? [[], [ROUTE_DIMENSION]] : [[]],
          Metrics: [{ Name: name, Unit: 'Count' }],
        },
      ],
    },
  };
  console.log(redactEmails(JSON.stringify(line)));
}

export const log = {
  info: (message: string, fields?: Fields) => write('info', message, fields),
  warn: (message: string, fields?: Fields) => write('warn', message, fields),
  error: (message: string, err?: unknown, fields?: Fields) => write('error', message, { ...fields, ...errorFields(err) }),
  metric,
};
