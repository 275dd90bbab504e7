import { GetCommand, PutCommand, ScanCommand, UpdateCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { ExcludableIndustry } from '../../events/founding-values';
import { LikenessControls, type GenerationConfig } from '../../events/generations';
import { publiclyListed } from '../../events/likeness';
import { Talent, type PublicTalent } from '../../events/talent';
import { isConditionFailure } from '../shared/errors';
import { log } from '../shared/log';

/*
 * The talent table (the catalog): one item per talent, keyed by its slug `id`. The catalog is
 * small (tens to a few hundred people), so lists are one paged scan rather than an index.
 */
export type TalentStore = ReturnType<typeof talentStore>;

/**
 * The item without the likeness controls (excluded industries, pause, removal, freeze, the
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

export function talentStore(doc: DynamoDBDocumentClient, tableName: string) {
  const scan = async function* (filter?: { expression: string; names: Record<string, string>; values: Record<string, unknown> }) {
    let start: Record<string, unknown> | undefined;
    do {
      const page = await doc.send(
        new ScanCommand({
          TableName: tableName,
          FilterExpression: filter?.expression,
          ExpressionAttributeNames: filter?.names,
          ExpressionAttributeValues: filter?.values,
          ExclusiveStartKey: start,
        }),
      );
      yield page.Items ?? [];
      start = page.LastEvaluatedKey;
    } while (start);
  };

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

    /** Adds a talent; false when the id is taken. */
    /**
     * Adds a talent unless the id is taken (false then). `excludedIndustries` (the applicant's
     * choice) is stored beside the catalog fields, where generation checks it; the talent edits
     * it later in their portal.
     */
    async create(talent: Talent, excludedIndustries?: ExcludableIndustry[]): Promise<boolean> {
      const item = excludedIndustries ? { ...talent, excludedIndustries } : talent;
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
