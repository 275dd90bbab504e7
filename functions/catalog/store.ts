import { GetCommand, PutCommand, ScanCommand, TransactWriteCommand, UpdateCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { ExcludableIndustry } from '../../events/founding-values';
import { LikenessControls, type ExclusiveContract, type GenerationConfig } from '../../events/generations';
import { publiclyListed } from '../../events/likeness';
import { Talent, type PublicTalent } from '../../events/talent';
import type { TransactionWrite } from '../shared/email';
import { isConditionFailure } from '../shared/errors';
import { log } from '../shared/log';

/*
 * The talent table (the catalog): one item per talent, keyed by its slug `id`. The catalog is
 * small (tens to a few hundred people), so lists are one paged scan rather than an index.
 */
export type TalentStore = ReturnType<typeof talentStore>;

/**
 * The item without the likeness controls (excluded industries, pause, removal, exclusive contract, the
 * generation config): those are read and written on their own, never shown in the Talent Library
 * or the console's catalog edit.
 */
function catalogFields(item: Record<string, unknown> | undefined): Record<string, unknown> | undefined {
  if (!item) return item;
  const rest = { ...item };
  for (const field of CONTROL_FIELDS) delete rest[field];
  return rest;
}

/** Attributes of the likeness controls (events/generations.ts `LikenessControls`), kept out of every catalog answer. */
const CONTROL_FIELDS = Object.keys(LikenessControls.shape);

/** The likeness controls of a stored item; controls that do not match the schema are logged and read as none. */
function controlsOf(item: Record<string, unknown>): LikenessControls {
  const picked = Object.fromEntries(CONTROL_FIELDS.filter((f) => item[f] !== undefined).map((f) => [f, item[f]]));
  const controls = LikenessControls.safeParse(picked);
  if (!controls.success) log.warn('likeness controls do not match the schema', { id: typeof item.id === 'string' ? item.id : undefined });
  return controls.success ? controls.data : {};
}

/** A conditional update's expressions (an UpdateItem's or a transaction's Update). */
interface Update {
  UpdateExpression: string;
  ConditionExpression: string;
  ExpressionAttributeNames?: Record<string, string>;
  ExpressionAttributeValues?: Record<string, unknown>;
}

export function talentStore(doc: DynamoDBDocumentClient, tableName: string) {
  const scan = async function* (filter?: { expression: string; names: Record<string, string>; values: Record<string, unknown> }) {
    let start: Record<string, unknown> | undefined;
    do {
      const page = await doc.send(
        new ScanCommand({
          TableName: tableName,
          FilterExpression: filter?.expression,
          // DynamoDB refuses empty maps: a filter without names or values sends none.
          ExpressionAttributeNames: filter && Object.keys(filter.names).length > 0 ? filter.names : undefined,
          ExpressionAttributeValues: filter && Object.keys(filter.values).length > 0 ? filter.values : undefined,
          ExclusiveStartKey: start,
        }),
      );
      yield page.Items ?? [];
      start = page.LastEvaluatedKey;
    } while (start);
  };

  /**
   * One conditional update of an existing talent; false when its condition does not hold. With
   * `also` (an outbox email telling of the change, functions/shared/email.ts), the update and
   * those writes are one transaction: all happen or none.
   */
  const conditional = async (update: Update, id: string, also: TransactionWrite[] = []): Promise<boolean> => {
    try {
      if (also.length === 0) await doc.send(new UpdateCommand({ TableName: tableName, Key: { id }, ...update }));
      else await doc.send(new TransactWriteCommand({ TransactItems: [{ Update: { TableName: tableName, Key: { id }, ...update } }, ...also] }));
      return true;
    } catch (err) {
      if (isConditionFailure(err)) return false;
      throw err;
    }
  };

  /**
   * One write to a talent that holds only while `condition` does: 'done', else whether the talent
   * is missing ('not-found') or the condition refused it ('refused'), read consistently after.
   */
  async function updateIf(id: string, set: string, values: Record<string, unknown>, condition: string): Promise<'done' | 'not-found' | 'refused'> {
    try {
      await doc.send(
        new UpdateCommand({ TableName: tableName, Key: { id }, UpdateExpression: set, ConditionExpression: `attribute_exists(id) AND ${condition}`, ExpressionAttributeValues: values }),
      );
      return 'done';
    } catch (err) {
      if (!isConditionFailure(err)) throw err;
      const out = await doc.send(new GetCommand({ TableName: tableName, Key: { id }, ConsistentRead: true, ProjectionExpression: 'id' }));
      return out.Item ? 'refused' : 'not-found';
    }
  }

  return {
    /** Every active talent as the public sees it. */
    async listPublic(): Promise<PublicTalent[]> {
      const talent: PublicTalent[] = [];
      for await (const items of scan({ expression: '#status = :active', names: { '#status': 'status' }, values: { ':active': 'active' } })) {
        for (const item of items) {
          const t = publicTalentOf(item);
          if (t) talent.push(t);
        }
      }
      return talent;
    },

    /** One talent as the public sees it; undefined when unknown or hidden. */
    async getPublic(id: string): Promise<PublicTalent | undefined> {
      const out = await doc.send(new GetCommand({ TableName: tableName, Key: { id } }));
      return publicTalentOf(out.Item);
    },

    /** Every talent, hidden ones included (items that do not match the schema are logged and left out). */
    async listAll(): Promise<Talent[]> {
      const all: Talent[] = [];
      for await (const items of scan()) {
        for (const item of items) {
          const parsed = Talent.safeParse(catalogFields(item));
          if (parsed.success) all.push(parsed.data);
          else log.warn('talent item does not match the schema', { id: typeof item.id === 'string' ? item.id : undefined });
        }
      }
      return all;
    },

    /** One talent whatever its status. */
    async get(id: string): Promise<Talent | undefined> {
      const out = await doc.send(new GetCommand({ TableName: tableName, Key: { id }, ConsistentRead: true }));
      const talent = Talent.safeParse(catalogFields(out.Item));
      return talent.success ? talent.data : undefined;
    },

    /**
     * The industries a talent's likeness may not be used for (set by the talent on the talent
     * portal; generations check them). Undefined when the talent never saved them (or there is
     * no such talent).
     */
    async getExcludedIndustries(id: string): Promise<ExcludableIndustry[] | undefined> {
      const out = await doc.send(new GetCommand({ TableName: tableName, Key: { id }, ConsistentRead: true }));
      return Array.isArray(out.Item?.excludedIndustries) ? (out.Item.excludedIndustries as ExcludableIndustry[]) : undefined;
    },

    /** Stores a talent's excluded industries (never creates a talent); false when there is no such talent. */
    async setExcludedIndustries(id: string, industries: ExcludableIndustry[]): Promise<boolean> {
      try {
        await doc.send(
          new UpdateCommand({
            TableName: tableName,
            Key: { id },
            UpdateExpression: 'SET excludedIndustries = :x',
            ConditionExpression: 'attribute_exists(id)',
            ExpressionAttributeValues: { ':x': industries },
          }),
        );
        return true;
      } catch (err) {
        if (isConditionFailure(err)) return false;
        throw err;
      }
    },

    /**
     * A talent and its likeness controls, as a generation checks them (undefined when there is
     * no such talent). Controls that do not match the schema are logged and read as none.
     */
    async getForGeneration(id: string): Promise<{ talent: Talent; controls: LikenessControls } | undefined> {
      const out = await doc.send(new GetCommand({ TableName: tableName, Key: { id }, ConsistentRead: true }));
      const talent = Talent.safeParse(catalogFields(out.Item));
      if (!talent.success) return undefined;
      return { talent: talent.data, controls: controlsOf(out.Item!) };
    },

    /** Sets the model (or version) and trigger word a talent is generated with; false when there is no such talent. */
    async setGenerationConfig(id: string, config: GenerationConfig): Promise<boolean> {
      try {
        await doc.send(
          new UpdateCommand({
            TableName: tableName,
            Key: { id },
            UpdateExpression: 'SET generation = :g',
            ConditionExpression: 'attribute_exists(id)',
            ExpressionAttributeValues: { ':g': config },
          }),
        );
        return true;
      } catch (err) {
        if (isConditionFailure(err)) return false;
        throw err;
      }
    },

    /**
     * The console's hand-typed generation config: only for a talent who did not come from a
     * founding application (seeded talent). A talent accepted from an application is generated
     * with the version of their own model they approved (docs/training.md): 'trained', nothing
     * changed. One conditional write, so an acceptance that lands meanwhile is not overwritten.
     */
    async setHandTypedGenerationConfig(id: string, config: GenerationConfig): Promise<'set' | 'not-found' | 'trained'> {
      const outcome = await updateIf(id, 'SET generation = :g', { ':g': config }, 'attribute_not_exists(applicationId)');
      return outcome === 'done' ? 'set' : outcome === 'refused' ? 'trained' : 'not-found';
    },

    // ---- Exclusive contracts (docs/royalties.md#exclusive-contracts) ----
    // The current contract is the item's `frozen` attribute (its stored name, kept).

    /**
     * Records an exclusive contract on the talent: only when the talent exists, has no contract,
     * no removal requested and is not removed (one conditional write: two admins recording at once
     * cannot both succeed). Answers 'recorded', or what stood in the way.
     */
    async setExclusiveContract(id: string, contract: ExclusiveContract): Promise<'recorded' | 'not-found' | 'conflict'> {
      const outcome = await updateIf(id, 'SET frozen = :c', { ':c': contract }, 'attribute_not_exists(frozen) AND attribute_not_exists(removal) AND attribute_not_exists(removedAt)');
      return outcome === 'done' ? 'recorded' : outcome === 'refused' ? 'conflict' : 'not-found';
    },

    /**
     * Clears the talent's contract if it is still `contractId` (false when another run or an
     * admin got there first); `also`: the email telling of it, written with it.
     */
    async clearExclusiveContract(id: string, contractId: string, also: TransactionWrite[] = []): Promise<boolean> {
      return conditional({ UpdateExpression: 'REMOVE frozen', ConditionExpression: 'frozen.id = :cid', ExpressionAttributeValues: { ':cid': contractId } }, id, also);
    },

    /**
     * Marks the contract's start as told to the talent, once: false when it already was (or the
     * contract changed), so concurrent runs send the email once. `at` undefined takes the mark
     * back. `also`: the email telling the talent, written with the mark.
     */
    async markContractStartNotified(id: string, contractId: string, at: string | undefined, also: TransactionWrite[] = []): Promise<boolean> {
      return conditional(
        at
          ? {
              UpdateExpression: 'SET frozen.startNotifiedAt = :at',
              ConditionExpression: 'frozen.id = :cid AND attribute_not_exists(frozen.startNotifiedAt)',
              ExpressionAttributeValues: { ':cid': contractId, ':at': at },
            }
          : { UpdateExpression: 'REMOVE frozen.startNotifiedAt', ConditionExpression: 'frozen.id = :cid', ExpressionAttributeValues: { ':cid': contractId } },
        id,
        also,
      );
    },

    /**
     * Every talent with a contract on record (in force, starting, or past its term and not yet
     * archived), with their controls; `accountId` keeps the contracts of that brand only.
     */
    async listUnderContract(accountId?: string): Promise<{ talent: Talent; controls: LikenessControls }[]> {
      const found: { talent: Talent; controls: LikenessControls }[] = [];
      const filter = accountId
        ? { expression: '#f.accountId = :acc', names: { '#f': 'frozen' }, values: { ':acc': accountId } }
        : { expression: 'attribute_type(#f, :map)', names: { '#f': 'frozen' }, values: { ':map': 'M' } };
      for await (const items of scan(filter)) {
        for (const item of items) {
          const talent = Talent.safeParse(catalogFields(item));
          if (talent.success) found.push({ talent: talent.data, controls: controlsOf(item) });
          else log.warn('talent item does not match the schema', { id: typeof item.id === 'string' ? item.id : undefined });
        }
      }
      return found;
    },

    // ---- Likeness controls the talent changes (docs/royalties.md#likeness) ----

    /** Pauses or resumes a likeness; false when there is no such talent or it was removed. */
    async setPaused(id: string, paused: boolean): Promise<boolean> {
      return conditional({
        UpdateExpression: paused ? 'SET paused = :t' : 'REMOVE paused',
        ConditionExpression: 'attribute_exists(id) AND attribute_not_exists(removedAt)',
        ...(paused ? { ExpressionAttributeValues: { ':t': true } } : {}),
      }, id);
    },

    /**
     * Records a removal request, once: false when one is already recorded, the likeness was
     * removed, or an exclusive contract runs past `now` (in force or starting). `also`: the email
     * telling the talent, written with it.
     */
    async requestRemoval(id: string, removal: { requestedAt: string; effectiveAt: string }, also: TransactionWrite[] = []): Promise<boolean> {
      return conditional({
        UpdateExpression: 'SET removal = :r',
        ConditionExpression: 'attribute_exists(id) AND attribute_not_exists(removal) AND attribute_not_exists(removedAt) AND (attribute_not_exists(frozen) OR frozen.#until <= :now)',
        ExpressionAttributeNames: { '#until': 'until' },
        ExpressionAttributeValues: { ':r': removal, ':now': removal.requestedAt },
      }, id, also);
    },

    /** Cancels a removal whose notice is still running at `now`; false otherwise. */
    async cancelRemoval(id: string, now: string): Promise<boolean> {
      return conditional({
        UpdateExpression: 'REMOVE removal',
        ConditionExpression: 'attribute_exists(removal) AND removal.effectiveAt > :now AND attribute_not_exists(removedAt)',
        ExpressionAttributeValues: { ':now': now },
      }, id);
    },

    /**
     * Carries out a removal whose notice has run out by `removedAt`, once: records when, clears
     * the model config and the pause, and ends the founding rate (the talent is on the standard
     * tiers from then). False when there is nothing to carry out (not due, or done before).
     * `also`: the email telling the talent, written with it.
     */
    async completeRemoval(id: string, removedAt: string, also: TransactionWrite[] = []): Promise<boolean> {
      return conditional({
        UpdateExpression: 'SET removedAt = :at, royaltyPlan = :standard, founding = :false REMOVE generation, paused',
        ConditionExpression: 'attribute_exists(removal) AND removal.effectiveAt <= :at AND attribute_not_exists(removedAt)',
        ExpressionAttributeValues: { ':at': removedAt, ':standard': 'standard-tiers', ':false': false },
      }, id, also);
    },

    /** Talent with a removal requested and not yet carried out, with their controls (the likeness schedule's pass). */
    async listPendingRemovals(): Promise<Array<{ talent: Talent; controls: LikenessControls }>> {
      const all: Array<{ talent: Talent; controls: LikenessControls }> = [];
      for await (const items of scan({ expression: 'attribute_exists(removal) AND attribute_not_exists(removedAt)', names: {}, values: {} })) {
        for (const item of items) {
          const parsed = Talent.safeParse(catalogFields(item));
          if (parsed.success) all.push({ talent: parsed.data, controls: controlsOf(item) });
          else log.warn('talent item does not match the schema', { id: typeof item.id === 'string' ? item.id : undefined });
        }
      }
      return all;
    },

    /**
     * Removes one sample from a talent's profile (a misuse report's decision): 'removed', or
     * 'absent' when the talent has no such sample (removed before, or no such talent). The list is
     * written only while it is still the one read, so a concurrent edit is read again, not lost.
     */
    async removeSample(id: string, url: string): Promise<'removed' | 'absent'> {
      for (let attempt = 0; attempt < 5; attempt++) {
        const out = await doc.send(new GetCommand({ TableName: tableName, Key: { id }, ConsistentRead: true, ProjectionExpression: 'samples' }));
        const samples = Array.isArray(out.Item?.samples) ? (out.Item.samples as string[]) : [];
        if (!samples.includes(url)) return 'absent';
        const written = await conditional(
          { UpdateExpression: 'SET samples = :after', ConditionExpression: 'samples = :before', ExpressionAttributeValues: { ':after': samples.filter((s) => s !== url), ':before': samples } },
          id,
        );
        if (written) return 'removed';
      }
      throw new Error(`the samples of ${id} kept changing while one was removed`);
    },

    /** Adds a talent; false when the id is taken. */
    /**
     * Adds a talent unless the id is taken (false then). `excludedIndustries` (the applicant's
     * choice) is stored beside the catalog fields, where generation checks it; the talent edits
     * it later in their portal. `applicationId` names the founding application the talent came
     * from (their email for likeness notices).
     */
    async create(talent: Talent, excludedIndustries?: ExcludableIndustry[], controls: Pick<LikenessControls, 'applicationId'> = {}): Promise<boolean> {
      const item = { ...talent, ...(excludedIndustries ? { excludedIndustries } : {}), ...(controls.applicationId ? { applicationId: controls.applicationId } : {}) };
      try {
        await doc.send(new PutCommand({ TableName: tableName, Item: item, ConditionExpression: 'attribute_not_exists(id)' }));
        return true;
      } catch (err) {
        if (isConditionFailure(err)) return false;
        throw err;
      }
    },

    /**
     * Sets the given fields of an existing talent (never creates one) and answers the talent as
     * stored afterwards; undefined when there is no such talent.
     */
    async update(id: string, changes: Partial<Talent>): Promise<Talent | undefined> {
      const entries = Object.entries(changes).filter(([, v]) => v !== undefined);
      try {
        const out = await doc.send(
          new UpdateCommand({
            TableName: tableName,
            Key: { id },
            UpdateExpression: `SET ${entries.map((_, i) => `#f${i} = :v${i}`).join(', ')}`,
            ConditionExpression: 'attribute_exists(id)',
            ExpressionAttributeNames: Object.fromEntries(entries.map(([k], i) => [`#f${i}`, k])),
            ExpressionAttributeValues: Object.fromEntries(entries.map(([, v], i) => [`:v${i}`, v])),
            ReturnValues: 'ALL_NEW',
          }),
        );
        return Talent.parse(catalogFields(out.Attributes));
      } catch (err) {
        if (isConditionFailure(err)) return undefined;
        throw err;
      }
    },
  };
}

/**
 * Reads one stored catalog item as a public talent, or undefined when it is hidden or does not
 * match the schema (logged by id: one bad item must not take the whole library down).
 */
function publicTalentOf(item: Record<string, unknown> | undefined): PublicTalent | undefined {
  if (!item) return undefined;
  const parsed = Talent.safeParse(catalogFields(item));
  if (!parsed.success) {
    log.warn('talent item does not match the schema', {
      id: typeof item.id === 'string' ? item.id : undefined,
      problems: parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; '),
    });
    return undefined;
  }
  if (parsed.data.status !== 'active') return undefined;
  // Removed talent (or past their notice) and talent under an exclusive contract leave the library.
  if (!publiclyListed(controlsOf(item), new Date())) return undefined;
  const { status: _status, ...rest } = parsed.data;
  return rest;
}
