/**
 * Structured JSON logs. Request bodies, emails and photos are personal data: callers pass
 * only identifiers and outcomes, never payloads. As a second line of defence, anything that
 * looks like an email address is replaced before a line is written, and an error is logged by
 * its name and code only: its message can quote the address it failed on (SES and Cognito
 * messages do), so it is never logged.
 */
type Fields = Record<string, string | number | boolean | undefined | null>;

/** Something shaped like an address: `local@domain.tld`, however odd the local part. */
const EMAIL_LIKE = /[^\s"'<>(),;:@]+@[^\s"'<>(),;:@/]+\.[^\s"'<>(),;:@/]+/g;
const REDACTED_EMAIL = '[email]';

export function redactEmails(text: string): string {
  return text.replace(EMAIL_LIKE, REDACTED_EMAIL);
}

/** What may be logged of an error: its name, and its code and HTTP status when it has them. */
function errorFields(err: unknown): Fields {
  if (!(err instanceof Error)) return { error: typeof err };
  const e = err as Error & { code?: unknown; Code?: unknown; $metadata?: { httpStatusCode?: unknown } };
  const code = typeof e.code === 'string' || typeof e.code === 'number' ? e.code : typeof e.Code === 'string' ? e.Code : undefined;
  const status = e.$metadata?.httpStatusCode;
  return { error: e.name, code, status: typeof status === 'number' ? status : undefined };
}

function write(level: 'info' | 'warn' | 'error', message: string, fields?: Fields): void {
  const line = redactEmails(JSON.stringify({ level, message, time: new Date().toISOString(), ...fields }));
  if (level === 'error') console.error(line);
  else if (level === 'warn') console.warn(line);
  else console.log(line);
}

export const log = {
  info: (message: string, fields?: Fields) => write('info', message, fields),
  warn: (message: string, fields?: Fields) => write('warn', message, fields),
  error: (message: string, err?: unknown, fields?: Fields) => write('error', message, { ...fields, ...errorFields(err) }),
};
