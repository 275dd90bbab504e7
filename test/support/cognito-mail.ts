// Reading Cognito's messages (sign-up, resend and forgot-password codes) as a person reads them:
// from the emails the twin's SES emulator received (decision 020). Codes are random.
import { eventually } from './eventually';

interface SentEmail {
  to: string[];
  subject: string;
  text?: string;
  html?: string;
}

/** Anything that lists sent mail: a twin (`twin()`), or `{ emails: () => ses.listMessages() }`. */
interface MailSource {
  emails(): Promise<SentEmail[]>;
}

/** The visible text of an email: its text part, else its HTML without markup. */
export function visibleText(email: SentEmail): string {
  if (email.text) return email.text;
  return (email.html ?? '')
    .replace(/<(style|head)[\s\S]*?<\/\1>/gi, ' ')
    .replace(/<[^>]+>/g, ' ')
    .replace(/&#(\d+);/g, (_, n) => String.fromCharCode(Number(n)))
    .replace(/\s+/g, ' ')
    .trim();
}

/** The six-digit code of an email, if it has one. */
function codeOf(email: SentEmail): string | undefined {
  return visibleText(email).match(/\b(\d{6})\b/)?.[1];
}

/** Every email to `address` carrying a code, oldest first. */
export async function cognitoMails(source: MailSource, address: string): Promise<SentEmail[]> {
  const wanted = address.toLowerCase();
  return (await source.emails()).filter((m) => m.to.some((to) => to.toLowerCase() === wanted) && codeOf(m) !== undefined);
}

/**
 * The code of the newest email to `address` carrying one, polling until it arrives. With
 * `previous`, waits for a code other than that one (after a resend or a second request).
 */
export async function latestCognitoCode(source: MailSource, address: string, opts: { previous?: string; timeoutMs?: number } = {}): Promise<string> {
  return eventually(
    async () => {
      const code = codeOf((await cognitoMails(source, address)).at(-1) ?? { to: [], subject: '' });
      return code !== undefined && code !== opts.previous ? code : undefined;
    },
    { timeoutMs: opts.timeoutMs ?? 15_000, what: `a Cognito code emailed to ${address}` },
  );
}
