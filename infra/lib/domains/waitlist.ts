import { AttributeType } from 'aws-cdk-lib/aws-dynamodb';
import { Construct } from 'constructs';
import { WAITLIST_SIGNED_UP } from '../../../events/waitlist';
import { AppFunction } from '../platform/app-function';
import { consumeEvents } from '../platform/event-rules';
import type { Platform } from '../platform/platform';
import { AppTable } from '../platform/tables';

/**
 * The early-access waitlist (functions/waitlist): signups confirmed by email (decision 015),
 * places taken on confirmation (capacity enforced by a conditional counter), the
 * `Waitlist.SignedUp` event and the welcome email sent by its consumer, the console's list and
 * export, and the site's conversion events.
 */
export class Waitlist extends Construct {
  readonly table: AppTable;

  constructor(scope: Construct, id: string, platform: Platform) {
    super(scope, id);
    const { api, bus, email, idempotency, rateLimits, config } = platform;
    this.table = new AppTable(this, 'Table', {
      partitionKey: 'pk',
      // Signups in waitlist order, for the console's list and export.
      indexes: [{ name: 'byPosition', partitionKey: 'gsi1pk', sortKey: { name: 'gsi1sk', type: AttributeType.NUMBER } }],
      // Unconfirmed signups and confirmation links expire by themselves; confirmed signups have no expiry.
      timeToLiveAttribute: 'expiresAt',
      retain: config.retainData,
    });
    const capacity = { WAITLIST_CAPACITY: String(config.waitlistCapacity) };

    const signup = new AppFunction(this, 'EarlySignup', {
      entry: 'functions/waitlist/routes/early-signup/handler.ts',
      description: 'POST /early-signup: asks to join the early-access waitlist and emails the confirmation link',
      environment: capacity,
    })
      .bindTable(this.table, 'WAITLIST_TABLE', ['GetItem', 'PutItem'])
      .bindEmail(email);
    idempotency.bind(signup);
    rateLimits.bind(signup);
    api.route('POST /early-signup', signup, 'public');
    // The original backend's path, so its clients keep working.
    api.route('POST /functions/v1/early-signup', signup, 'public');

    const confirm = new AppFunction(this, 'ConfirmSignup', {
      entry: 'functions/waitlist/routes/confirm-waitlist/handler.ts',
      description: 'POST /confirm-waitlist: a confirmation link takes its place on the waitlist',
      environment: capacity,
    })
      .bindTable(this.table, 'WAITLIST_TABLE', ['GetItem', 'PutItem', 'UpdateItem', 'DeleteItem'])
      .bindBus(bus);
    idempotency.bind(confirm);
    rateLimits.bind(confirm);
    api.route('POST /confirm-waitlist', confirm, 'public');

    const welcome = new AppFunction(this, 'Welcome', { entry: 'functions/waitlist/triggers/waitlist-welcome/handler.ts', description: 'Sends the waitlist welcome email once per signup' })
      .bindTable(this.table, 'WAITLIST_TABLE', ['GetItem', 'UpdateItem'])
      .bindEmail(email);
    idempotency.bind(welcome);
    consumeEvents(this, 'OnSignedUp', { bus, detailType: WAITLIST_SIGNED_UP, consumer: welcome, consequence: 'welcome email' });

    const list = new AppFunction(this, 'AdminListWaitlist', { entry: 'functions/waitlist/routes/list-waitlist/handler.ts', description: 'GET /admin/waitlist: signups in waitlist order (admins only)' })
      .bindTable(this.table, 'WAITLIST_TABLE', ['Query']);
    api.route('GET /admin/waitlist', list, 'admin');
    const csv = new AppFunction(this, 'AdminExportWaitlist', { entry: 'functions/waitlist/routes/export-waitlist-csv/handler.ts', description: 'GET /admin/waitlist/export: the waitlist as CSV (admins only)' })
      .bindTable(this.table, 'WAITLIST_TABLE', ['Query']);
    api.route('GET /admin/waitlist/export', csv, 'admin');

    const conversion = new AppFunction(this, 'RecordConversion', { entry: 'functions/waitlist/routes/record-conversion/handler.ts', description: 'POST /events/conversion: records a signup conversion on the bus' })
      .bindBus(bus);
    idempotency.bind(conversion);
    api.route('POST /events/conversion', conversion, 'public');
  }
}
