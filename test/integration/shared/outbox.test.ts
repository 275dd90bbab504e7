// The email outbox on the twin's DynamoDB (functions/shared/email.ts, decision 041): an email is
// written in the same transaction as the change it tells of (none when the change is refused),
// sent once however many runs race for it, kept for the next run while sending fails, and
// stripped of its address and text once sent.
import { GetCommand, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { talentStore } from '../../../functions/catalog/store';
import { emailOutbox, type Email, type OutboxConfig } from '../../../functions/shared/email';
import { createAcceptedTalent } from '../../support/accepted-talent';
import { fileMarker } from '../../support/marker';
import { documentClient, useTwin } from '../../support/twin';

jest.setTimeout(60_000);
const twin = useTwin();
const run = fileMarker('obx');

const config = (): OutboxConfig => ({ OUTBOX_TABLE: twin().physicalName('EmailOutbox'), SENDER_EMAIL: 'hello@humanly.example', SITE_URL: 'https://humanly.example' });
const email = (subject: string): Email => ({ subject, text: `${subject} (text)`, html: `<p>${subject}</p>` });
const quiet = () => (['log', 'warn', 'error'] as const).map((m) => jest.spyOn(console, m).mockImplementation(() => undefined));
const item = async (id: string) => (await documentClient(twin()).send(new GetCommand({ TableName: config().OUTBOX_TABLE, Key: { id }, ConsistentRead: true }))).Item;

/** A sender that records what it sent, and fails while `down`. */
function ses() {
  const sent: Array<{ to: string; subject: string }> = [];
  const state = { down: false };
  const send = async (to: string, e: Email) => {
    if (state.down) throw Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' });
    sent.push({ to, subject: e.subject });
    return `msg-${sent.length}`;
  };
  return { sent, state, send };
}

let logs: jest.SpyInstance[];
beforeEach(() => (logs = quiet()));
afterEach(() => logs.forEach((l) => l.mockRestore()));

it('writes the email with the change in one transaction, and nothing when the change is refused', async () => {
  const doc = documentClient(twin());
  const talentId = `obx-talent-${run}`;
  await createAcceptedTalent(twin(), { email: `obx.${run}@people.example`, talentId, firstName: 'Oba', lastName: `Outbox ${run}`, founding: false, marker: `obx-${run}` });
  const talents = talentStore(doc, twin().physicalName('CatalogTalentTable'));
  const mail = ses();
  const outbox = emailOutbox(doc, config(), mail.send);
  const past = new Date(Date.now() - 60_000).toISOString();
  const now = new Date().toISOString();

  // No removal requested: the removal cannot complete, and its email is not written either.
  const early = outbox.entry(`likeness-removed#${talentId}#${now}`, `obx.${run}@people.example`, email(`Removed ${run}`));
  expect(await talents.completeRemoval(talentId, now, [early])).toBe(false);
  expect(await item(`likeness-removed#${talentId}#${now}`)).toBeUndefined();

  const requested = outbox.entry(`removal-requested#${talentId}#${past}`, `obx.${run}@people.example`, email(`Requested ${run}`));
  expect(await talents.requestRemoval(talentId, { requestedAt: past, effectiveAt: past }, [requested])).toBe(true);
  expect(await item(`removal-requested#${talentId}#${past}`)).toMatchObject({ recipient: `obx.${run}@people.example`, subject: `Requested ${run}`, attempts: 0 });
  const done = outbox.entry(`likeness-removed#${talentId}#${now}`, `obx.${run}@people.example`, email(`Removed ${run}`));
  expect(await talents.completeRemoval(talentId, now, [done])).toBe(true);
  expect((await talents.getForGeneration(talentId))?.controls.removedAt).toBe(now);
  // Again: refused, and the email is not written twice.
  expect(await talents.completeRemoval(talentId, now, [done])).toBe(false);

  expect(await outbox.deliver([`removal-requested#${talentId}#${past}`, `likeness-removed#${talentId}#${now}`])).toEqual({ sent: 2, failed: 0, overdue: 0 });
  expect(mail.sent.map((m) => m.subject).sort()).toEqual([`Removed ${run}`, `Requested ${run}`]);
});

it('sends each waiting email once when runs race, keeps a failed one for the next run, and forgets the address once sent', async () => {
  const doc = documentClient(twin());
  const mail = ses();
  const outbox = emailOutbox(doc, config(), mail.send);
  // Written as a change's transaction would write it (here alone).
  const ids = [1, 2, 3].map((n) => `obx-race#${run}#${n}`);
  await doc.send(new TransactWriteCommand({ TransactItems: ids.map((id, n) => outbox.entry(id, `obx.race${n}.${run}@people.example`, email(`Race ${n} ${run}`))) }));

  mail.state.down = true;
  expect(await outbox.deliver(ids)).toEqual({ sent: 0, failed: 3, overdue: 0 });
  expect(await item(ids[0])).toMatchObject({ attempts: 1, lastError: 'Error', recipient: `obx.race0.${run}@people.example` });
  expect((await item(ids[0]))?.claimedUntil).toBeUndefined();

  mail.state.down = false;
  const runs = await Promise.all([outbox.deliver(ids), outbox.deliver(ids), outbox.deliver(ids)]);
  expect(runs.reduce((n, r) => n + r.sent, 0)).toBe(3);
  expect(mail.sent.map((m) => m.subject).sort()).toEqual([0, 1, 2].map((n) => `Race ${n} ${run}`));
  expect(await outbox.deliver(ids)).toEqual({ sent: 0, failed: 0, overdue: 0 });

  const sent = await item(ids[0]);
  expect(sent).toMatchObject({ id: ids[0], attempts: 2, messageId: expect.stringMatching(/^msg-/), sentAt: expect.any(String), expiresAt: expect.any(Number) });
  for (const gone of ['recipient', 'subject', 'bodyText', 'bodyHtml', 'claimedUntil']) expect(sent).not.toHaveProperty(gone);
  expect(JSON.stringify(sent)).not.toContain('@people.example');
});
