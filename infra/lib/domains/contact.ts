import { Construct } from 'constructs';
import { CONTACT_MESSAGE_RECEIVED } from '../../../events/contact';
import { AppFunction } from '../platform/app-function';
import { consumeEvents } from '../platform/event-rules';
import type { Platform } from '../platform/platform';
import { AppTable } from '../platform/tables';

/**
 * Contact messages (functions/contact) from /contact, /pre-launch-contact and
 * /founding-talent-contact: stored, announced as `Contact.MessageReceived`, and emailed to the
 * team (StageConfig.contactEmail) by its consumer, which also acknowledges the sender; the
 * console reads and marks them.
 */
export class Contact extends Construct {
  readonly table: AppTable;

  constructor(scope: Construct, id: string, platform: Platform) {
    super(scope, id);
    const { api, bus, email, idempotency, rateLimits, config } = platform;
    // Per-sender daily counters expire by themselves; messages have no expiry.
    this.table = new AppTable(this, 'MessagesTable', { partitionKey: 'pk', timeToLiveAttribute: 'expiresAt', retain: config.retainData });

    const receive = new AppFunction(this, 'SendMessage', { entry: 'functions/contact/routes/send-contact-message/handler.ts', description: 'POST /contact: stores a contact message and announces it' })
      .bindTable(this.table, 'MESSAGES_TABLE', ['PutItem', 'UpdateItem', 'DeleteItem'])
      .bindBus(bus);
    idempotency.bind(receive);
    rateLimits.bind(receive);
    api.route('POST /contact', receive, 'public');

    const notify = new AppFunction(this, 'Notify', {
      entry: 'functions/contact/triggers/contact-notify/handler.ts',
      description: 'Emails a contact message to the team and acknowledges the sender, once each',
      environment: { CONTACT_EMAIL: config.contactEmail },
    })
      .bindTable(this.table, 'MESSAGES_TABLE', ['GetItem', 'UpdateItem'])
      .bindEmail(email);
    idempotency.bind(notify);
    consumeEvents(this, 'OnMessageReceived', { bus, detailType: CONTACT_MESSAGE_RECEIVED, consumer: notify, consequence: 'team email and acknowledgement' });

    const list = new AppFunction(this, 'AdminListMessages', { entry: 'functions/contact/routes/list-messages/handler.ts', description: 'GET /admin/messages: contact messages (admins only)' })
      .bindTable(this.table, 'MESSAGES_TABLE', ['Scan'], { indexes: false });
    api.route('GET /admin/messages', list, 'admin');
    const get = new AppFunction(this, 'AdminGetMessage', { entry: 'functions/contact/routes/get-message/handler.ts', description: 'GET /admin/messages/{id}: one contact message (admins only)' })
      .bindTable(this.table, 'MESSAGES_TABLE', ['GetItem']);
    api.route('GET /admin/messages/{id}', get, 'admin');
    const update = new AppFunction(this, 'AdminUpdateMessage', { entry: 'functions/contact/routes/update-message/handler.ts', description: 'PATCH /admin/messages/{id}: marks a message handled (admins only)' })
      .bindTable(this.table, 'MESSAGES_TABLE', ['UpdateItem']);
    api.route('PATCH /admin/messages/{id}', update, 'admin');
  }
}
