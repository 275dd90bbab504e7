// Models and their versions: `POST /v1/models` makes a model of the account, each training that
// succeeds adds a version to its destination, `DELETE .../versions/{id}` removes one (with its
// predictions, as Replicate does). A trained version keeps the first photo of its training set,
// which its predictions' previews are drawn from.
import type { Hardware, Model, ModelVersion } from 'replicate';
import { ApiProblem, invalidInput, newVersionId, notFound } from './shared';

/** The hardware `POST /v1/models` accepts (`GET /v1/hardware`). */
const HARDWARE: readonly Hardware[] = [
  { sku: 'cpu', name: 'CPU' },
  { sku: 'gpu-t4', name: 'Nvidia T4 GPU' },
  { sku: 'gpu-l40s', name: 'Nvidia L40S GPU' },
  { sku: 'gpu-a100-large', name: 'Nvidia A100 (80GB) GPU' },
  { sku: 'gpu-h100', name: 'Nvidia H100 GPU' },
];
/** Replicate's model names: lowercase letters, digits, dashes, underscores and periods. */
const MODEL_NAME = /^[a-z0-9][a-z0-9._-]{0,99}$/;

/** What the emulator holds of one version (tests read it through `models()`). */
interface EmulatedVersion {
  id: string;
  createdAt: number;
  /** The training that made it. */
  trainingId: string;
  triggerWord: string;
  /** How many images its training set had. */
  images: number;
  /** Deleted through the API: gone from every answer, kept here for tests. */
  deleted?: true;
}

/** What the emulator holds of one model (tests read it through `models()`). */
export interface EmulatedModel {
  owner: string;
  name: string;
  visibility: 'public' | 'private';
  hardware: string;
  description: string | null;
  createdAt: number;
  versions: EmulatedVersion[];
}

interface HeldModel extends EmulatedModel {
  versions: Array<EmulatedVersion & { subject: Buffer }>;
}

/** A trained version a prediction may run, found by its id. */
export interface TrainedVersion {
  model: string;
  id: string;
  /** The first photo of its training set (512 px PNG). */
  subject: Buffer;
  deleted: boolean;
}

export class Models {
  private readonly models = new Map<string, HeldModel>();

  constructor(
    /** The account the token belongs to: the only owner of the models it creates. */
    readonly account: string,
    private readonly endpoint: () => string,
    /** How many predictions ran on a model (its `run_count`). */
    private readonly runCount: (model: string) => number,
  ) {}

  hardware(): Hardware[] {
    return HARDWARE.map((h) => ({ ...h }));
  }

  /** `POST /v1/models`. */
  create(body: Record<string, unknown>): Model {
    const { owner, name, visibility, hardware, description } = body;
    if (typeof owner !== 'string' || owner === '') throw invalidInput('owner: required');
    if (typeof name !== 'string' || name === '') throw invalidInput('name: required');
    if (owner !== this.account) throw new ApiProblem(403, 'Forbidden', `You can only create models owned by your account, ${this.account}`);
    if (!MODEL_NAME.test(name)) throw invalidInput('name: lowercase letters, digits, dashes, underscores and periods, at most 100 characters');
    if (visibility !== 'public' && visibility !== 'private') throw invalidInput('visibility: one of public, private');
    if (typeof hardware !== 'string' || !HARDWARE.some((h) => h.sku === hardware)) {
      throw invalidInput(`hardware: one of ${HARDWARE.map((h) => h.sku).join(', ')}`);
    }
    if (description !== undefined && description !== null && typeof description !== 'string') throw invalidInput('description: must be a string');
    const key = `${owner}/${name}`;
    if (this.models.has(key)) throw new ApiProblem(409, 'Conflict', 'A model with that name and owner already exists.');
    const model: HeldModel = { owner, name, visibility, hardware, description: description ?? null, createdAt: Date.now(), versions: [] };
    this.models.set(key, model);
    return this.view(model);
  }

  get(owner: string, name: string): Model {
    return this.view(this.held(owner, name));
  }

  exists(model: string): boolean {
    return this.models.has(model);
  }

  /** `GET .../versions`: newest first. */
  versions(owner: string, name: string): ModelVersion[] {
    return this.live(this.held(owner, name)).map((v) => this.versionView(v));
  }

  version(owner: string, name: string, id: string): ModelVersion {
    const version = this.live(this.held(owner, name)).find((v) => v.id === id);
    if (!version) throw notFound();
    return this.versionView(version);
  }

  /** `DELETE .../versions/{id}`: only a private model's; answers the id of the version deleted. */
  deleteVersion(owner: string, name: string, id: string): string {
    const model = this.held(owner, name);
    const version = this.live(model).find((v) => v.id === id);
    if (!version) throw notFound();
    if (model.visibility !== 'private') throw new ApiProblem(403, 'Forbidden', 'You can only delete versions from private models.');
    version.deleted = true;
    return version.id;
  }

  /** A succeeded training's new version of its destination. */
  addVersion(destination: string, version: { trainingId: string; triggerWord: string; images: number; subject: Buffer }): string {
    const model = this.models.get(destination);
    if (!model) throw new Error(`no model ${destination}`);
    const id = newVersionId();
    model.versions.push({ id, createdAt: Date.now(), ...version });
    return id;
  }

  /** A trained version by its id (deleted ones too, so a prediction on one is refused). */
  trained(id: string): TrainedVersion | undefined {
    for (const model of this.models.values()) {
      const version = model.versions.find((v) => v.id === id);
      if (version) return { model: `${model.owner}/${model.name}`, id, subject: version.subject, deleted: Boolean(version.deleted) };
    }
    return undefined;
  }

  /** The version a prediction by model name runs: the model's latest; undefined for a model the emulator did not create. */
  latest(model: string): TrainedVersion | undefined {
    const held = this.models.get(model);
    if (!held) return undefined;
    const latest = this.live(held)[0];
    if (!latest) throw new ApiProblem(422, 'Invalid version or not permitted', `${model} has no version to run`);
    return { model, id: latest.id, subject: latest.subject, deleted: false };
  }

  /** For tests: every model with every version, deleted ones marked. */
  all(): EmulatedModel[] {
    return [...this.models.values()].map((m) => ({ ...m, versions: m.versions.map(({ subject: _s, ...v }) => ({ ...v })) }));
  }

  private held(owner: string, name: string): HeldModel {
    const model = this.models.get(`${owner}/${name}`);
    if (!model) throw notFound();
    return model;
  }

  private live(model: HeldModel) {
    return model.versions.filter((v) => !v.deleted).sort((a, b) => b.createdAt - a.createdAt);
  }

  private versionView(v: EmulatedVersion): ModelVersion {
    return {
      id: v.id,
      created_at: new Date(v.createdAt).toISOString(),
      cog_version: null,
      // What the local preview takes (a trained FLUX LoRA takes more; extra inputs are passed on).
      openapi_schema: {
        openapi: '3.0.2',
        info: { title: 'Local preview of a trained version', version: '1' },
        components: {
          schemas: {
            Input: {
              type: 'object',
              required: ['prompt'],
              properties: {
                prompt: { type: 'string', description: `Include the trigger word "${v.triggerWord}"` },
                num_outputs: { type: 'integer', minimum: 1, maximum: 4, default: 1 },
                aspect_ratio: { type: 'string', enum: ['1:1'], default: '1:1' },
                output_format: { type: 'string', enum: ['png'], default: 'png' },
                seed: { type: 'integer' },
              },
            },
          },
        },
      },
    };
  }

  private view(m: HeldModel): Model {
    const latest = this.live(m)[0];
    // Replicate sends null for the links a model does not have (the package types them optional).
    const none = null as unknown as undefined;
    return {
      url: `${this.endpoint()}/${m.owner}/${m.name}`,
      owner: m.owner,
      name: m.name,
      description: m.description ?? none,
      visibility: m.visibility,
      is_official: false,
      github_url: none,
      paper_url: none,
      license_url: none,
      run_count: this.runCount(`${m.owner}/${m.name}`),
      cover_image_url: none,
      default_example: none,
      latest_version: latest ? this.versionView(latest) : none,
    };
  }
}
