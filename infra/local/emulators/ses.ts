// SES: aws-ses-v2-local, in-process. It accepts v1 SendEmail/SendRawEmail and v2 SendEmail, keeps
// sent mail in memory and serves a mail viewer at `/` (the twin links to it so a local user can
// read confirmation and notification mail).
//
// Its mail store is a module-level singleton: two SES emulators in one process share their
// mail. `startSes` therefore clears the store when it starts.
import type { Server } from 'node:http';
import startSesServer from 'aws-ses-v2-local';
import { endpointFor, LOOPBACK, type EmulatorHandle, type EmulatorOptions } from './ports';

interface SentMail {
  messageId: string;
  from: string;
  to: string[];
  cc: string[];
  bcc: string[];
  replyTo: string[];
  subject: string;
  text?: string;
  html?: string;
  attachments: Array<{ filename?: string; contentType: string; size: number }>;
  /** ISO 8601 (the store keeps whole seconds). */
  at: string;
}

export interface SesEmulator extends EmulatorHandle {
  /** Mail sent so far, oldest first. */
  listMessages(): Promise<SentMail[]>;
  /** Forgets all sent mail (and templates). */
  clear(): Promise<void>;
  /** The page where sent mail can be read in a browser. */
  viewerUrl: string;
}

/** Shape of one entry of aws-ses-v2-local's `GET /store` (see its dist/store.d.ts). */
interface StoredEmail {
  messageId: string;
  from: string;
  replyTo?: string[];
  destination?: { to?: string[]; cc?: string[]; bcc?: string[] };
  subject: string;
  body?: { html?: string; text?: string };
  attachments?: Array<{ filename?: string; contentType: string; size: number }>;
  at: number;
}

function normaliseStoredEmail(email: StoredEmail): SentMail {
  return {
    messageId: email.messageId,
    from: email.from,
    to: email.destination?.to ?? [],
    cc: email.destination?.cc ?? [],
    bcc: email.destination?.bcc ?? [],
    replyTo: email.replyTo ?? [],
    subject: email.subject,
    text: email.body?.text || undefined,
    html: email.body?.html || undefined,
    attachments: (email.attachments ?? []).map(({ filename, contentType, size }) => ({ filename, contentType, size })),
    at: new Date(email.at * 1000).toISOString(),
  };
}

export async function startSes(opts: EmulatorOptions = {}): Promise<SesEmulator> {
  const server: Server = await startSesServer({ host: LOOPBACK, port: opts.port ?? 0 });
  // aws-ses-v2-local resolves even when listen failed (express passes the error to a callback it ignores).
  if (!server.listening) {
    server.close();
    throw new Error(`SES emulator could not listen on ${LOOPBACK}:${opts.port ?? 0} (port in use?)`);
  }
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  const endpoint = endpointFor(port);

  const clear = async () => {
    const res = await fetch(`${endpoint}/clear-store`, { method: 'POST' });
    if (!res.ok) throw new Error(`SES clear-store failed: HTTP ${res.status}`);
  };
  await clear();
  if (opts.verbose) console.log(`[ses] aws-ses-v2-local on ${endpoint}, mail viewer at ${endpoint}/`);

  let stopped: Promise<void> | undefined;
  return {
    endpoint,
    port,
    viewerUrl: `${endpoint}/`,
    clear,
    async listMessages() {
      const res = await fetch(`${endpoint}/store`);
      if (!res.ok) throw new Error(`SES store failed: HTTP ${res.status}`);
      const { emails } = (await res.json()) as { emails: StoredEmail[] };
      return emails.map(normaliseStoredEmail);
    },
    stop() {
      stopped ??= new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
      return stopped;
    },
  };
}
