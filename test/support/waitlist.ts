import { postJsonFrom, type FromAnswer } from './from-address';
import type { TestTwin } from './twin';

export { postJsonFrom };
type JsonAnswer = FromAnswer;

/**
 * Waitlist helpers for tests on the twin. A signup takes its place only when the link of its
 * confirmation email is followed, and signups are limited per client IP address, so tests
 * connect from loopback addresses of their own (from-address.ts).
 */

let next = 0;
/** A loopback address no other caller in this process used (127.<pid-based>.x.y), so per-IP limits start at zero. */
export function freshLoopback(): string {
  const n = next++;
  return `127.${10 + (process.pid % 200)}.${Math.floor(n / 250) % 250}.${(n % 250) + 1}`;
}

/** Every confirmation token mailed to an address, oldest first, read from the SES emulator. */
export async function confirmationTokens(twin: TestTwin, email: string): Promise<string[]> {
  const mail = (await twin.emails()).filter((m) => m.to.includes(email) && /#confirm=/.test(m.text ?? ''));
  return mail.map((m) => (m.text ?? '').match(/#confirm=([A-Za-z0-9_-]{43})/)![1]);
}

/** The link of the last confirmation email sent to an address. */
export async function confirmationLink(twin: TestTwin, email: string): Promise<string> {
  const mail = (await twin.emails()).filter((m) => m.to.includes(email) && /#confirm=/.test(m.text ?? '')).at(-1);
  const link = mail?.text?.match(/https?:\/\/\S+#confirm=[A-Za-z0-9_-]{43}/)?.[0];
  if (!link) throw new Error(`no confirmation email was sent to ${email}`);
  return link;
}

/** Posts the token of the last confirmation email sent to an address. */
export async function confirmLatest(twin: TestTwin, email: string, ip = freshLoopback()): Promise<JsonAnswer> {
  const token = (await confirmationTokens(twin, email)).at(-1);
  if (!token) throw new Error(`no confirmation email was sent to ${email}`);
  return postJsonFrom(ip, `${twin.urls.api}/confirm-waitlist`, { token });
}

/**
 * Joins the waitlist as a person does: signs up, reads the confirmation email and follows its
 * link. Returns the place; throws with the answer when a step is refused.
 */
export async function joinWaitlist(twin: TestTwin, body: Record<string, unknown>, ip = freshLoopback()): Promise<number> {
  const signup = await postJsonFrom(ip, `${twin.urls.api}/early-signup`, body);
  if (signup.status !== 200) throw new Error(`signup refused: ${signup.status} ${JSON.stringify(signup.json)}`);
  const email = String(body.email).trim().toLowerCase();
  const confirmed = await confirmLatest(twin, email, ip);
  if (confirmed.status !== 200) throw new Error(`confirmation refused: ${confirmed.status} ${JSON.stringify(confirmed.json)}`);
  return confirmed.json.position as number;
}
