// The one data access of payouts (docs/payouts.md): the talent's connected account, each
// statement's payout, the month's runs and the talent's payout history, all in the Payouts table.
// Which Connect events were applied is kept by the idempotency utility (decision 050); the
// statements themselves stay in royalties' store.
import { DeleteCommand, PutCommand, UpdateCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { PAYOUTS_LIST_INDEX, type StatementPayoutState } from '../../events/payout-values';
import type { ConnectAccountStatus, ConnectNameCheck, PayoutRunEntry, StatementPayout } from '../../events/payouts';
import { ERASED_TALENT_NAME } from '../../events/erasure';
import { isConditionFailure } from '../shared/errors';
import { queryAll } from '../shared/query-all';
import { tableItems } from '../shared/store';

const payoutKeys = {
  connect: (talentId: string) => ({ pk: `TALENT#${talentId}`, sk: 'CONNECT' }),
  accountOwner: (accountId: string) => ({ pk: `CONNECT#${accountId}`, sk: 'TALENT' }),
  payout: (talentId: string, month: string) => ({ pk: `TALENT#${talentId}`, sk: `PAYOUT#${month}` }),
  payoutPrefix: 'PAYOUT#',
  monthList: (month: string) => `PAYOUTS#${month}`,
  history: (talentId: string, at: string, key: string) => ({ pk: `TALENT#${talentId}`, sk: `HISTORY#${at}#${key}` }),
  historyPrefix: 'HISTORY#',
  run: (month: string) => ({ pk: `RUN#${month}`, sk: 'RUN' }),
};

/** A talent's connected account: created once, its id never leaves the server. */
export interface ConnectRecord {
  talentId: string;
  accountId: string;
  /** The address the talent signed in with when they set up payouts: payout emails go there. */
  email: string;
  talentName: string;
  createdAt: string;
  /** The account's state as Stripe last told it (account.updated, or a read). */
  status?: ConnectAccountStatus;
  statusAt?: string;
  /** The account's legal name against the talent's verified ID, as last compared. */
  nameCheck?: ConnectNameCheck;
}

/** A statement's payout as stored: the answer's fields, and what it carried into and why it failed. */
export interface PayoutRecord extends StatementPayout {
  /** For `carried`: the month whose payout took this amount in, once one did. */
  carriedInto?: string;
  /** For `failed`: the transfer went through and the bank payout failed (Stripe pays it out again once fixed). */
  bankFailure?: boolean;
  /** For `failed`: ours to fix (the platform's balance, a refusal we did not expect), not the talent's. */
  oursToFix?: boolean;
  updatedAt: string;
}

export interface HistoryEntry {
  at: string;
  what: string;
}

const KEY_FIELDS = ['pk', 'sk', 'listKey'];

export type PayoutStore = ReturnType<typeof payoutStore>;

export function payoutStore(doc: DynamoDBDocumentClient, tableName: string) {
  const { get, putNew: putOnce, strip, update } = tableItems(doc, tableName, { keyFields: KEY_FIELDS });

  return {
    getConnect: (talentId: string) => get<ConnectRecord>(payoutKeys.connect(talentId)),

    /**
     * Records the talent's connected account once (and who owns the account id). Answers the
     * record kept: an earlier one wins, so two clicks at once keep one account.
     */
    async putConnect(record: ConnectRecord): Promise<ConnectRecord> {
      const created = await putOnce({ ...payoutKeys.connect(record.talentId), ...record });
      if (!created) return (await get<ConnectRecord>(payoutKeys.connect(record.talentId)))!;
      await doc.send(new PutCommand({ TableName: tableName, Item: { ...payoutKeys.accountOwner(record.accountId), talentId: record.talentId } }));
      return record;
    },

    /** The talent whose connected account this is, or undefined for an account that is not ours. */
    async talentOfAccount(accountId: string): Promise<string | undefined> {
      return (await get<{ talentId: string }>(payoutKeys.accountOwner(accountId)))?.talentId;
    },

    async setConnectStatus(talentId: string, status: ConnectAccountStatus, at: string): Promise<void> {
      await doc.send(
        new UpdateCommand({
          TableName: tableName,
          Key: payoutKeys.connect(talentId),
          UpdateExpression: 'SET #s = :s, statusAt = :at',
          ConditionExpression: 'attribute_exists(pk)',
          ExpressionAttributeNames: { '#s': 'status' },
          ExpressionAttributeValues: { ':s': status, ':at': at },
        }),
      );
    },

    /** Keeps the latest comparison of the account's name with the verified ID (on an existing account record). */
    recordNameCheck: (talentId: string, check: ConnectNameCheck) => update(payoutKeys.connect(talentId), { nameCheck: check }),

    getPayout: (talentId: string, month: string) => get<PayoutRecord>(payoutKeys.payout(talentId, month)),

    /** The talent's payouts, oldest month first. */
    async listPayouts(talentId: string): Promise<PayoutRecord[]> {
      const items = await queryAll(doc, tableName, {
        KeyConditionExpression: 'pk = :pk AND begins_with(sk, :p)',
        ExpressionAttributeValues: { ':pk': `TALENT#${talentId}`, ':p': payoutKeys.payoutPrefix },
        ConsistentRead: true,
      });
      return items.map((i) => strip<PayoutRecord>(i));
    },

    /** Every payout of a month (the console's run). */
    async listPayoutsOfMonth(month: string): Promise<PayoutRecord[]> {
      const items = await queryAll(doc, tableName, {
        IndexName: PAYOUTS_LIST_INDEX,
        KeyConditionExpression: 'listKey = :k',
        ExpressionAttributeValues: { ':k': payoutKeys.monthList(month) },
      });
      return items.map((i) => strip<PayoutRecord>(i));
    },

    /**
     * Writes a statement's payout when its current state is one of `from` (`absent`: there is
     * none yet). False when another writer got there first: the caller reads it again.
     */
    async putPayout(record: PayoutRecord, from: (StatementPayoutState | 'absent')[], options: { actionsSeen?: number } = {}): Promise<boolean> {
      const states = from.filter((s): s is StatementPayoutState => s !== 'absent');
      const conditions = [...(from.includes('absent') ? ['attribute_not_exists(pk)'] : []), ...states.map((_, i) => `#state = :from${i}`)];
      // The admins' actions are a history: a write that adds one must find the list as it was read.
      const seen = options.actionsSeen;
      const names = { ...(states.length ? { '#state': 'state' } : {}), ...(seen !== undefined ? { '#actions': 'actions' } : {}) };
      const values = { ...Object.fromEntries(states.map((s, i) => [`:from${i}`, s])), ...(seen !== undefined ? { ':seen': seen } : {}) };
      const condition = seen === undefined ? conditions.join(' OR ') : `(${conditions.join(' OR ')}) AND (${seen === 0 ? 'attribute_not_exists(#actions) OR ' : ''}size(#actions) = :seen)`;
      try {
        await doc.send(
          new PutCommand({
            TableName: tableName,
            Item: { ...payoutKeys.payout(record.talentId, record.month), listKey: payoutKeys.monthList(record.month), at: `${record.month}#${record.talentId}`, ...record },
            ConditionExpression: condition,
            ...(Object.keys(names).length ? { ExpressionAttributeNames: names } : {}),
            ...(Object.keys(values).length ? { ExpressionAttributeValues: values } : {}),
          }),
        );
        return true;
      } catch (err) {
        if (isConditionFailure(err)) return false;
        throw err;
      }
    },

    /** Records that a carried payout's amount went into `intoMonth`'s payout (idempotent). */
    async markCarriedInto(talentId: string, month: string, intoMonth: string): Promise<void> {
      try {
        await doc.send(
          new UpdateCommand({
            TableName: tableName,
            Key: payoutKeys.payout(talentId, month),
            UpdateExpression: 'SET carriedInto = :into',
            ConditionExpression: 'attribute_exists(pk) AND (attribute_not_exists(carriedInto) OR carriedInto = :into)',
            ExpressionAttributeValues: { ':into': intoMonth },
          }),
        );
      } catch (err) {
        if (!isConditionFailure(err)) throw err;
      }
    },

    /** Adds one line to the talent's payout history; the same `key` at the same time is written once. */
    async addHistory(talentId: string, entry: HistoryEntry, key: string): Promise<void> {
      await putOnce({ ...payoutKeys.history(talentId, entry.at, key), ...entry });
    },

    /** The talent's payout history, newest first. */
    async history(talentId: string): Promise<HistoryEntry[]> {
      const items = await queryAll(doc, tableName, {
        KeyConditionExpression: 'pk = :pk AND begins_with(sk, :p)',
        ExpressionAttributeValues: { ':pk': `TALENT#${talentId}`, ':p': payoutKeys.historyPrefix },
        ScanIndexForward: false,
      });
      return items.map((i) => ({ at: String(i.at), what: String(i.what) }));
    },

    /** The month's last run and every run recorded (oldest first). */
    async getRun(month: string): Promise<{ ranAt: string; runs?: PayoutRunEntry[] } | undefined> {
      return get<{ ranAt: string; runs?: PayoutRunEntry[] }>(payoutKeys.run(month));
    },

    /** Records a run of the month: its time, appended to the month's runs with the admin who started it (none: the monthly close). */
    async setRan(month: string, at: string, by?: { sub: string; email: string }): Promise<void> {
      const run: PayoutRunEntry = { at, ...(by ? { by: by.email, bySub: by.sub } : {}) };
      await doc.send(
        new UpdateCommand({
          TableName: tableName,
          Key: payoutKeys.run(month),
          UpdateExpression: 'SET #month = :month, ranAt = :at, runs = list_append(if_not_exists(runs, :none), :run)',
          ExpressionAttributeNames: { '#month': 'month' },
          ExpressionAttributeValues: { ':month': month, ':at': at, ':none': [], ':run': [run] },
        }),
      );
    },
  };
}

/**
 * Erasure of a talent (decision 035): their payout account keeps its Stripe id (the money's trail)
 * but loses the address and name; each payout keeps its figures, month and transfer under
 * ERASED_TALENT_NAME; the payout history (bank changes, payouts in words) is deleted. Marked
 * erased `at`. Idempotent.
 */
export async function erasePayoutsOfTalent(doc: DynamoDBDocumentClient, tableName: string, talentId: string, at: string): Promise<{ accounts: number; payouts: number; history: number }> {
  const items = await queryAll(doc, tableName, { KeyConditionExpression: 'pk = :pk', ExpressionAttributeValues: { ':pk': `TALENT#${talentId}` }, ConsistentRead: true });
  const counts = { accounts: 0, payouts: 0, history: 0 };
  for (const item of items) {
    const key = { pk: String(item.pk), sk: String(item.sk) };
    if (key.sk.startsWith('HISTORY#')) {
      await doc.send(new DeleteCommand({ TableName: tableName, Key: key }));
      counts.history += 1;
    } else if (key.sk === 'CONNECT') {
      await doc.send(
        new UpdateCommand({
          TableName: tableName,
          Key: key,
          UpdateExpression: 'SET talentName = :name, erasedAt = if_not_exists(erasedAt, :at) REMOVE email, #status',
          ExpressionAttributeNames: { '#status': 'status' },
          ExpressionAttributeValues: { ':name': ERASED_TALENT_NAME, ':at': at },
        }),
      );
      counts.accounts += 1;
    } else if (key.sk.startsWith('PAYOUT#')) {
      await doc.send(
        new UpdateCommand({
          TableName: tableName,
          Key: key,
          UpdateExpression: 'SET talentName = :name, erasedAt = if_not_exists(erasedAt, :at)',
          ExpressionAttributeValues: { ':name': ERASED_TALENT_NAME, ':at': at },
        }),
      );
      counts.payouts += 1;
    }
  }
  return counts;
}
