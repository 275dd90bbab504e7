import { RemovalPolicy } from 'aws-cdk-lib';
import { HttpMethod } from 'aws-cdk-lib/aws-apigatewayv2';
import { AttributeType, BillingMode, Table, TableEncryption } from 'aws-cdk-lib/aws-dynamodb';
import type { EventBus } from 'aws-cdk-lib/aws-events';
import { LambdaFunction } from 'aws-cdk-lib/aws-events-targets';
import { Construct } from 'constructs';
import { CONTACT_MESSAGE_RECEIVED } from '../../../events/contact';
import { EVENT_SOURCE } from '../../../events/product';
import { AppFunction } from '../app-function';
import { retriedRule } from '../event-rules';
import type { EmailSending } from './email';
import type { MarketplaceApi } from './http-api';
import type { IdempotencyStore } from './idempotency';
import type { RateLimits } from './rate-limits';

export interface ContactProps {
  api: MarketplaceApi;
  bus: EventBus;
  idempotency: IdempotencyStore;
  /** Per-IP limits of messages. */
  rateLimits: RateLimits;
  email: EmailSending;
  /** The team's address: contact messages are emailed here (StageConfig.contactEmail). */
  contactEmail: string;
  siteUrl: string;
  retainData: boolean;
}

/**
 * Contact messages from /contact, /pre-launch-contact and /founding-talent-contact: stored,
 * announced as `Contact.MessageReceived`, and emailed to the team by its consumer, which also
 * acknowledges the sender.
 */
export class Contact extends Construct {
  readonly table: Table;

  constructor(scope: Construct, id: string, props: ContactProps) {
    super(scope, id);
    this.table = new Table(this, 'MessagesTable', {
      partitionKey: { name: 'pk', type: AttributeType.STRING },
      billingMode: BillingMode.PAY_PER_REQUEST,
      encryption: TableEncryption.AWS_MANAGED,
      pointInTimeRecoverySpecification: { pointInTimeRecoveryEnabled: true },
      // Per-sender daily counters expire by themselves; messages have no expiry.
      timeToLiveAttribute: 'expiresAt',
      deletionProtection: props.retainData,
      removalPolicy: props.retainData ? RemovalPolicy.RETAIN : RemovalPolicy.DESTROY,
    });

    const receive = new AppFunction(this, 'SendMessage', {
      entry: 'functions/contact/routes/send-contact-message/handler.ts',
      description: 'POST /contact: stores a contact message and announces it',
    })
      .bindTable(this.table, 'MESSAGES_TABLE', ['PutItem', 'UpdateItem', 'DeleteItem'])
      .bindBus(props.bus);
    props.idempotency.bind(receive);
    props.rateLimits.bind(receive);
    props.api.publicRoute('/contact', HttpMethod.POST, receive, 'SendContactMessage');

    const notify = new AppFunction(this, 'Notify', {
      entry: 'functions/contact/triggers/contact-notify/handler.ts',
      description: 'Emails a contact message to the team and acknowledges the sender, once each',
      environment: {
        SENDER_EMAIL: props.email.senderEmail,
        CONTACT_EMAIL: props.contactEmail,
        SITE_URL: props.siteUrl,
        SES_CONFIGURATION_SET: props.email.configurationSet.configurationSetName,
      },
    }).bindTable(this.table, 'MESSAGES_TABLE', ['GetItem', 'UpdateItem']);
    props.idempotency.bind(notify);
    props.email.grantSend(notify);

    retriedRule(this, 'OnMessageReceived', {
      eventBus: props.bus,
      description: 'Contact.MessageReceived -> team email and acknowledgement',
      eventPattern: { source: [EVENT_SOURCE], detailType: [CONTACT_MESSAGE_RECEIVED] },
      deadLetterId: 'NotifyDeadLetters',
      deadLetterOf: 'the contact-notification rule target',
      target: (retry) => new LambdaFunction(notify, retry),
    });

    props.api.adminTableRoutes(this, this.table, 'MESSAGES_TABLE', [
      { id: 'AdminListMessages', route: 'GET /admin/messages', entry: 'functions/contact/routes/list-messages/handler.ts', description: 'GET /admin/messages: contact messages (admins only)', actions: ['Scan'] },
      { id: 'AdminGetMessage', route: 'GET /admin/messages/{id}', entry: 'functions/contact/routes/get-message/handler.ts', description: 'GET /admin/messages/{id}: one contact message (admins only)', actions: ['GetItem'] },
      { id: 'AdminUpdateMessage', route: 'PATCH /admin/messages/{id}', entry: 'functions/contact/routes/update-message/handler.ts', description: 'PATCH /admin/messages/{id}: marks a message handled (admins only)', actions: ['UpdateItem'] },
    ]);
  }
}
