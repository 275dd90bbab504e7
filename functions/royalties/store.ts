// The one data access of royalties (docs/royalties.md): accruals (written by DeliverImages), the
// monthly statements and ended exclusive contracts, all in the Generations table
// (keys in generations-keys.ts).
import { GetCommand, PutCommand, QueryCommand, UpdateCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { ExclusiveContract } from '../../events/generations';
import type { AccrualLine, GivenBackLine, StatementAuditEntry, StatementTotals, TakenBackLine } from '../../events/royalties';
import type { ROYALTY_PLANS } from '../../events/talent-values';
import { isConditionFailure } from '../shared/errors';
import { tableItems, type ItemKey } from '../shared/store';
import { CREATED_INDEX, generationKeys } from '../generation';
import { queryAll } from '../shared/query-all';
import { ERASED_TALENT_NAME } from '../../events/erasure';
import { DeleteCommand } from '@aws-sdk/lib-dynamodb';

export type RoyaltyStore = ReturnType<typeof royaltyStore>;

/** An accrual as stored: the statement line's fields, and the statement month once claimed. */
export interface StoredAccrual extends AccrualLine {
  talentId: string;
  accountId: string;
  statementMonth?: string;
}

/** A closed statement as stored. Its figures never change; only `paid` and `audit` do. */
export interface StatementRecord {
  id: string;
  talentId: string;
  talentName: string;
  month: string;
  closedAt: string;
  totals: StatementTotals;
  /** The earliest accrual month the close read (the statement's lines are claimed accruals from here to `month`). */
  fromMonth: string;
  paid?: { paidAt: string; reference: string; by: string };
  audit: StatementAuditEntry[];
  /** When the talent was emailed that it is ready. */
  notifiedAt?: string;
}

export type EndedContract = ExclusiveContract & { endedAt: string; endedBy: string };

/** A license paid with a purchase's credit (generationKeys.creditUse): what a refund of the purchase can take back. */
export interface CreditUse {
  pk: string;
  sk: string;
  licenseId: string;
  talentId: string;
  /** The month the license was issued in: its accrual's. */
  month: string;
  at: string;
  /** The take-back that took its royalty back, once one did. */
  takenBackBy?: string;
}

/** A license's royalty taken back, as stored: claimed (`claimedBy`, with `statementMonth` and `royaltyMicros`) by the first close that runs after `at`. */
export interface StoredTakenBack {
  talentId: string;
  licenseId: string;
  /** The license's accrual month. */
  accrualMonth: string;
  at: string;
  reason: string;
  /** The take-back it came from. */
  key: string;
  accountId: string;
  /** The statement that takes it, once claimed. */
  claimedBy?: string;
  /** The statement month that counted the license's royalty, and that royalty: set when claimed. */
  statementMonth?: string;
  royaltyMicros?: number;
}

/** A license's royalty given back after its take-back (docs/decisions/061): claimed like a take-back by the first close after `at`. */
export interface StoredGivenBack {
  talentId: string;
  licenseId: string;
  at: string;
  reason: string;
  /** The reinstatement it came from (`report:<reference>`), the same key as the take-back it undoes. */
  key: string;
  claimedBy?: string;
  /** The statement month that took the royalty back, and what it took from the talent: set when claimed. */
  statementMonth?: string;
  royaltyMicros?: number;
}

/**
 * A license's royalty given back: one per license, ever, beside its take-back (`TAKEBACK#`) in the
 * talent's partition of the Generations table.
 */
const givenBackKey = (talentId: string, licenseId: string) => ({ pk: generationKeys.talent(talentId), sk: `${GIVEN_BACK_PREFIX}${licenseId}` });
const GIVEN_BACK_PREFIX = 'GIVEBACK#';

/** What only the table needs: keys, the list index's key, its sort attribute. */
const KEY_FIELDS = ['pk', 'sk', 'listKey', 'createdAt'];

/**
 * An accrual item as a statement line. Accruals written before the plan was recorded on them
 * take the talent's plan now (`fallbackPlan`); `promotional` and `noRoyalty` are read when set.
 */
function accrualOf(item: Record<string, unknown>, fallbackPlan: (typeof ROYALTY_PLANS)[number]): StoredAccrual {
  return {
    licenseId: String(item.licenseId),
    generationId: String(item.generationId),
    at: String(item.at),
    month: String(item.month),
    creditValueMicros: Number(item.creditValueMicros),
    royaltyPlan: (item.royaltyPlan as StoredAccrual['royaltyPlan'] | undefined) ?? fallbackPlan,
    // Accruals written before credits had kinds have neither: paid credits.
    ...(item.promotional === true ? { promotional: true as const } : {}),
    ...(typeof item.noRoyalty === 'string' ? { noRoyalty: item.noRoyalty as NonNullable<StoredAccrual['noRoyalty']> } : {}),
    talentId: String(item.talentId),
    accountId: String(item.accountId),
    ...(typeof item.statementMonth === 'string' ? { statementMonth: item.statementMonth } : {}),
  };
}

/** What a claimed adjustment refers to: the statement month and the royalty. */
type Counted = { statementMonth: string; royaltyMicros: number };

export function royaltyStore(doc: DynamoDBDocumentClient, tableName: string) {
  const table = tableItems(doc, tableName, { keyFields: KEY_FIELDS });
  /** Accruals of months `fromMonth` (or the first) to `toMonth`, inclusive. */
  const accrualsBetween = async (talentId: string, fromMonth: string | undefined, toMonth: string, filter: { expression: string; values?: Record<string, unknown> }) =>
    queryAll(doc, tableName, {
      KeyConditionExpression: 'pk = :pk AND sk BETWEEN :from AND :to',
      FilterExpression: filter.expression,
      ExpressionAttributeValues: {
        ':pk': generationKeys.talent(talentId),
        ':from': `${generationKeys.accrualPrefix}${fromMonth ?? ''}`,
        ':to': `${generationKeys.accrualPrefix}${toMonth}#\uffff`,
        ...filter.values,
      },
      ConsistentRead: true,
    });

  /**
   * Claims a royalty adjustment (taken back or given back) for the statement of `month`, with the
   * month it refers to and its royalty, once: false when another statement has it.
   */
  const claimAdjustment = async (key: ItemKey, month: string, counted: Counted): Promise<boolean> => {
    try {
      await doc.send(
        new UpdateCommand({
          TableName: tableName,
          Key: key,
          UpdateExpression: 'SET claimedBy = :m, statementMonth = if_not_exists(statementMonth, :s), royaltyMicros = if_not_exists(royaltyMicros, :r)',
          ConditionExpression: 'attribute_exists(pk) AND (attribute_not_exists(claimedBy) OR claimedBy = :m)',
          ExpressionAttributeValues: { ':m': month, ':s': counted.statementMonth, ':r': counted.royaltyMicros },
        }),
      );
      return true;
    } catch (err) {
      if (isConditionFailure(err)) return false;
      throw err;
    }
  };

  /** The talent's adjustments under `prefix` (taken back or given back) that the statement of `month` claimed, as its lines. */
  const claimedAdjustments = async (talentId: string, prefix: string, month: string): Promise<TakenBackLine[]> => {
    const items = await queryAll(doc, tableName, {
      KeyConditionExpression: 'pk = :pk AND begins_with(sk, :p)',
      FilterExpression: 'claimedBy = :m',
      ExpressionAttributeValues: { ':pk': generationKeys.talent(talentId), ':p': prefix, ':m': month },
      ConsistentRead: true,
    });
    return items.map((i) => ({ licenseId: String(i.licenseId), at: String(i.at), statementMonth: String(i.statementMonth), royaltyMicros: Number(i.royaltyMicros), reason: String(i.reason) }));
  };

  return {
    /** Accruals not on any statement yet, of months up to `toMonth` (from `fromMonth`, or all). */
    async openAccruals(talentId: string, toMonth: string, fallbackPlan: StoredAccrual['royaltyPlan'], fromMonth?: string): Promise<StoredAccrual[]> {
      const items = await accrualsBetween(talentId, fromMonth, toMonth, { expression: 'attribute_not_exists(statementMonth)' });
      return items.map((i) => accrualOf(i, fallbackPlan));
    },

    /** Accruals claimed by the statement of `month` (read from `fromMonth`, as the statement records). */
    async claimedAccruals(talentId: string, month: string, fromMonth: string, fallbackPlan: StoredAccrual['royaltyPlan']): Promise<StoredAccrual[]> {
      const items = await accrualsBetween(talentId, fromMonth, month, { expression: 'statementMonth = :m', values: { ':m': month } });
      return items.map((i) => accrualOf(i, fallbackPlan));
    },

    /**
     * Claims an accrual for the statement of `month`, once: true when it is (now or already)
     * that statement's, false when another statement has it. `royaltyPlan` is recorded on an
     * accrual written without one (before plans were recorded), so a rebuild reads the plan the
     * statement used even if the talent's plan changes later.
     */
    async claim(talentId: string, accrual: Pick<StoredAccrual, 'month' | 'licenseId'>, month: string, royaltyPlan?: StoredAccrual['royaltyPlan']): Promise<boolean> {
      try {
        await doc.send(
          new UpdateCommand({
            TableName: tableName,
            Key: generationKeys.accrual(talentId, accrual.month, accrual.licenseId),
            UpdateExpression: royaltyPlan ? 'SET statementMonth = :m, royaltyPlan = if_not_exists(royaltyPlan, :p)' : 'SET statementMonth = :m',
            ConditionExpression: 'attribute_exists(pk) AND (attribute_not_exists(statementMonth) OR statementMonth = :m)',
            ExpressionAttributeValues: { ':m': month, ...(royaltyPlan ? { ':p': royaltyPlan } : {}) },
          }),
        );
        return true;
      } catch (err) {
        if (isConditionFailure(err)) return false;
        throw err;
      }
    },

    /** One accrual as stored (with the statement month that claimed it, if any). */
    async getAccrual(talentId: string, month: string, licenseId: string, fallbackPlan: StoredAccrual['royaltyPlan']): Promise<StoredAccrual | undefined> {
      const out = await doc.send(new GetCommand({ TableName: tableName, Key: generationKeys.accrual(talentId, month, licenseId), ConsistentRead: true }));
      return out.Item ? accrualOf(out.Item, fallbackPlan) : undefined;
    },

    /** The licenses paid with a purchase's credits by an account, newest first. */
    async creditUses(accountId: string, source: string): Promise<CreditUse[]> {
      const items = await queryAll(doc, tableName, {
        KeyConditionExpression: 'pk = :pk',
        ExpressionAttributeValues: { ':pk': generationKeys.creditUses(accountId, source) },
        ScanIndexForward: false,
        ConsistentRead: true,
      });
      return items as unknown as CreditUse[];
    },

    /** Marks a license's royalty as taken back by `key`, once: false when another take-back has it. */
    async markTakenBack(use: Pick<CreditUse, 'pk' | 'sk'>, key: string, at: string): Promise<boolean> {
      try {
        await doc.send(
          new UpdateCommand({
            TableName: tableName,
            Key: { pk: use.pk, sk: use.sk },
            UpdateExpression: 'SET takenBackBy = :k, takenBackAt = :at',
            ConditionExpression: 'attribute_exists(pk) AND (attribute_not_exists(takenBackBy) OR takenBackBy = :k)',
            ExpressionAttributeValues: { ':k': key, ':at': at },
          }),
        );
        return true;
      } catch (err) {
        if (isConditionFailure(err)) return false;
        throw err;
      }
    },

    /** Records a license's royalty taken back, once per license: false when one is already recorded (a repeat writes nothing). */
    putTakenBack: (item: StoredTakenBack): Promise<boolean> => table.putNew({ ...generationKeys.takenBack(item.talentId, item.licenseId), ...item }),

    /** Whose royalty a license earned: its talent, its client and when it was issued (its accrual's month); undefined when there is no such license. */
    async licenseOf(licenseId: string): Promise<{ talentId: string; accountId: string; issuedAt: string } | undefined> {
      const out = await doc.send(
        new GetCommand({ TableName: tableName, Key: generationKeys.license(licenseId), ProjectionExpression: 'talentId, accountId, issuedAt', ConsistentRead: true }),
      );
      return out.Item ? { talentId: String(out.Item.talentId), accountId: String(out.Item.accountId), issuedAt: String(out.Item.issuedAt) } : undefined;
    },

    /** The talent's royalties taken back that no statement has claimed yet, taken back before `before` (ISO). */
    async openTakenBack(talentId: string, before: string): Promise<StoredTakenBack[]> {
      const items = await queryAll(doc, tableName, {
        KeyConditionExpression: 'pk = :pk AND begins_with(sk, :p)',
        FilterExpression: 'attribute_not_exists(claimedBy) AND #at < :before',
        ExpressionAttributeNames: { '#at': 'at' },
        ExpressionAttributeValues: { ':pk': generationKeys.talent(talentId), ':p': generationKeys.takenBackPrefix, ':before': before },
        ConsistentRead: true,
      });
      return items.map((i) => table.strip<StoredTakenBack>(i));
    },

    /**
     * Claims a royalty taken back for the statement of `month`, with the statement month that
     * counted it and the royalty it takes, once: false when another statement has it.
     */
    claimTakenBack: (talentId: string, licenseId: string, month: string, counted: Counted): Promise<boolean> =>
      claimAdjustment(generationKeys.takenBack(talentId, licenseId), month, counted),

    /** The royalties taken back that the statement of `month` claimed, as its lines. */
    claimedTakenBack: (talentId: string, month: string): Promise<TakenBackLine[]> => claimedAdjustments(talentId, generationKeys.takenBackPrefix, month),

    /** A license's royalty taken back, as stored (claimed or not); undefined when none was. */
    getTakenBack: (talentId: string, licenseId: string) => table.get<StoredTakenBack>(generationKeys.takenBack(talentId, licenseId)),

    /** Records a license's royalty given back, once per license: false when one is already recorded. */
    putGivenBack: (item: StoredGivenBack): Promise<boolean> => table.putNew({ ...givenBackKey(item.talentId, item.licenseId), ...item }),

    /** The talent's royalties given back that no statement has claimed yet, given back before `before` (ISO). */
    async openGivenBack(talentId: string, before: string): Promise<StoredGivenBack[]> {
      const items = await queryAll(doc, tableName, {
        KeyConditionExpression: 'pk = :pk AND begins_with(sk, :p)',
        FilterExpression: 'attribute_not_exists(claimedBy) AND #at < :before',
        ExpressionAttributeNames: { '#at': 'at' },
        ExpressionAttributeValues: { ':pk': generationKeys.talent(talentId), ':p': GIVEN_BACK_PREFIX, ':before': before },
        ConsistentRead: true,
      });
      return items.map((i) => table.strip<StoredGivenBack>(i));
    },

    /** Claims a royalty given back for the statement of `month`, with what it gives back, once: false when another statement has it. */
    claimGivenBack: (talentId: string, licenseId: string, month: string, counted: Counted): Promise<boolean> =>
      claimAdjustment(givenBackKey(talentId, licenseId), month, counted),

    /** The royalties given back that the statement of `month` claimed, as its lines. */
    claimedGivenBack: (talentId: string, month: string): Promise<GivenBackLine[]> => claimedAdjustments(talentId, GIVEN_BACK_PREFIX, month),

    getStatement: (talentId: string, month: string) => table.get<StatementRecord>(generationKeys.statement(talentId, month)),

    /** The talent's latest statement of a month before `month` (its remainder is carried in). */
    async latestStatementBefore(talentId: string, month: string): Promise<StatementRecord | undefined> {
      const items = await doc.send(
        new QueryCommand({
          TableName: tableName,
          KeyConditionExpression: 'pk = :pk AND sk BETWEEN :from AND :to',
          ExpressionAttributeValues: { ':pk': generationKeys.talent(talentId), ':from': generationKeys.statementPrefix, ':to': `${generationKeys.statementPrefix}${month}` },
          ScanIndexForward: false,
          ConsistentRead: true,
        }),
      );
      const before = (items.Items ?? []).find((i) => i.sk !== generationKeys.statement(talentId, month).sk);
      return before ? table.strip<StatementRecord>(before) : undefined;
    },

    /** Writes a closed statement once: false when the month already has one (it never changes). */
    putStatement: (statement: StatementRecord) =>
      table.putNew({
        ...generationKeys.statement(statement.talentId, statement.month),
        listKey: generationKeys.statementListKey(statement.month),
        createdAt: statement.closedAt,
        ...statement,
      }),

    /** The talent's statements, newest month first. */
    async listStatements(talentId: string): Promise<StatementRecord[]> {
      const items = await queryAll(doc, tableName, {
        KeyConditionExpression: 'pk = :pk AND begins_with(sk, :p)',
        ExpressionAttributeValues: { ':pk': generationKeys.talent(talentId), ':p': generationKeys.statementPrefix },
        ScanIndexForward: false,
      });
      return items.map((i) => table.strip<StatementRecord>(i));
    },

    /** Every talent's statement of a month (the console, the payout CSV), in close order. */
    async listStatementsOfMonth(month: string): Promise<StatementRecord[]> {
      const items = await queryAll(doc, tableName, {
        IndexName: CREATED_INDEX,
        KeyConditionExpression: 'listKey = :k',
        ExpressionAttributeValues: { ':k': generationKeys.statementListKey(month) },
      });
      return items.map((i) => table.strip<StatementRecord>(i));
    },

    /** Records that the talent was emailed about the statement; false when already recorded. */
    markNotified: (talentId: string, month: string, at: string) =>
      table.update(generationKeys.statement(talentId, month), { notifiedAt: at }, { expression: 'attribute_not_exists(notifiedAt)' }),

    /**
     * Marks a statement paid (or unpaid when `paid` is undefined) and appends the change to its
     * audit, in one write. Answers the statement as stored after; undefined when there is none.
     */
    async setPaid(talentId: string, month: string, paid: StatementRecord['paid'] | undefined, entry: StatementAuditEntry): Promise<StatementRecord | undefined> {
      try {
        const out = await doc.send(
          new UpdateCommand({
            TableName: tableName,
            Key: generationKeys.statement(talentId, month),
            UpdateExpression: paid
              ? 'SET paid = :paid, audit = list_append(if_not_exists(audit, :none), :entry)'
              : 'REMOVE paid SET audit = list_append(if_not_exists(audit, :none), :entry)',
            ConditionExpression: 'attribute_exists(pk)',
            ExpressionAttributeValues: { ...(paid ? { ':paid': paid } : {}), ':none': [], ':entry': [entry] },
            ReturnValues: 'ALL_NEW',
          }),
        );
        return out.Attributes ? table.strip<StatementRecord>(out.Attributes) : undefined;
      } catch (err) {
        if (isConditionFailure(err)) return undefined;
        throw err;
      }
    },

    /** Keeps an ended exclusive contract for the record (idempotent by contract id). */
    async addEndedContract(talentId: string, contract: EndedContract): Promise<void> {
      await doc.send(new PutCommand({ TableName: tableName, Item: { ...generationKeys.contractHistory(talentId, contract.id), ...contract } }));
    },

    async endedContracts(talentId: string): Promise<EndedContract[]> {
      const items = await queryAll(doc, tableName, {
        KeyConditionExpression: 'pk = :pk AND begins_with(sk, :p)',
        ExpressionAttributeValues: { ':pk': generationKeys.talent(talentId), ':p': generationKeys.contractHistoryPrefix },
        ScanIndexForward: false,
      });
      return items.map((i) => table.strip<EndedContract>(i));
    },
  };
}

/**
 * Erasure of a talent (decision 035): their payout details of before Stripe payouts, if any (where
 * the money went: an address and an account holder's name), are deleted; their statements stay, as accounting must keep them, with
 * ERASED_TALENT_NAME for their name and `erasedAt` set. The figures, the month, the talent id the
 * statements are keyed by and the payout reference stay. Idempotent.
 */
export async function eraseTalentPayouts(doc: DynamoDBDocumentClient, tableName: string, talentId: string, at: string): Promise<{ payoutDetails: number; statements: number }> {
  const deleted = await doc.send(new DeleteCommand({ TableName: tableName, Key: generationKeys.payoutDetails(talentId), ReturnValues: 'ALL_OLD' }));
  const statements = await queryAll(doc, tableName, {
    KeyConditionExpression: 'pk = :pk AND begins_with(sk, :p)',
    ExpressionAttributeValues: { ':pk': generationKeys.talent(talentId), ':p': generationKeys.statementPrefix },
    ProjectionExpression: 'pk, sk',
  });
  for (const key of statements) {
    await doc.send(
      new UpdateCommand({
        TableName: tableName,
        Key: { pk: key.pk, sk: key.sk },
        UpdateExpression: 'SET talentName = :name, erasedAt = if_not_exists(erasedAt, :at)',
        ConditionExpression: 'attribute_exists(pk)',
        ExpressionAttributeValues: { ':name': ERASED_TALENT_NAME, ':at': at },
      }),
    );
  }
  return { payoutDetails: deleted.Attributes ? 1 : 0, statements: statements.length };
}
