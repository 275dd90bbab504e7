import { HttpMethod } from 'aws-cdk-lib/aws-apigatewayv2';
import type { ITable } from 'aws-cdk-lib/aws-dynamodb';
import { Construct } from 'constructs';
import type { EmailSending } from './email';
import type { MarketplaceApi } from './http-api';
import type { IdempotencyStore } from './idempotency';
import type { RateLimits } from './rate-limits';

export interface RoyaltiesProps {
  api: MarketplaceApi;
  rateLimits: RateLimits;
  idempotency: IdempotencyStore;
  email: EmailSending;
  /** Accounts: profiles (the data export), roles (a contract's brand must be a client). */
  accountsTable: ITable;
  /** The catalog: talent, their royalty plan and likeness controls (pause, removal, contracts). */
  talentTable: ITable;
  /** Founding applications: a talent's standing, their email for notices, the data export. */
  applicationsTable: ITable;
  /** The Generations table: accruals (written by DeliverImages), statements, payout details, contract history. */
  generationsTable: ITable;
  siteUrl: string;
  /** A removal's notice in seconds (stage config; 30 days, shorter on the twin). */
  removalNoticeSeconds: number;
}

/**
 * Royalties, monthly statements and the talent's control over their likeness (docs/royalties.md).
 * Lives inside the Generation nested stack (decision 026): it reads and writes that stack's table.
 */
export class Royalties extends Construct {
  constructor(scope: Construct, id: string, props: RoyaltiesProps) {
    super(scope, id);
    void HttpMethod;
    void props;

    // --- The monthly close: state machine, schedule, statement emails (royalty-close) ---

    // --- The talent's earnings, statements and payout details (talent-earnings) ---

    // --- Likeness controls: pause, removal, data export, the likeness schedule (likeness-controls) ---

    // --- Exclusive contracts (frozen likeness): console routes, the brand's talent (frozen-likeness) ---

    // --- The console: Statements resource, payouts, the dashboard's owed total (console-statements) ---
  }
}
