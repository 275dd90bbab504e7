import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import type { io } from '@tensorflow/tfjs';
import type { Config, Human, Result } from '@vladmandic/human';

/** Where the model files and the WASM binaries are read from; both default to the packages'. */
interface FaceModelOptions {
  /** Folder holding blazeface.json, facemesh.json, faceres.json and their .bin files. */
  modelsDir?: string;
  /** Folder holding tfjs-backend-wasm's .wasm files. */
  wasmDir?: string;
}

interface FaceModelLoad {
  /** Milliseconds the first load took in this process (the cold start). */
  loadMs: number;
  /** TensorFlow backend in use ('wasm'). */
  backend: string;
  /** Human's version. */
  version: string;
}

type HumanModule = { Human: new (config: Partial<Config>) => Human; match: Human['match'] };

/** Human's dist folder (the package's main entry, resolved but not loaded, is in it). */
const humanDist = () => path.dirname(require.resolve('@vladmandic/human'));
/** Loads a file by its absolute path (the bundle's own `__filename` is not always defined where it runs). */
const loadFile = (file: string): unknown => createRequire(file)(file);
let humanModule: HumanModule | undefined;

/**
 * Human's Node build for the WASM backend. The package's exports map sends Node to the build for
 * @tensorflow/tfjs-node (whose install downloads a library), so this one is required by its file,
 * beside the main entry. It requires @tensorflow/tfjs-core, -converter and -backend-wasm itself.
 * Memoized: the file is large.
 */
function human(): HumanModule {
  humanModule ??= loadFile(path.join(humanDist(), 'human.node-wasm.js')) as HumanModule;
  return humanModule;
}

/** Human's similarity of two face descriptors, 0 (unlike) to 1 (identical). Needs no model. */
export function descriptorSimilarity(a: readonly number[], b: readonly number[]): number {
  return human().match.similarity(a as number[], b as number[]);
}

/**
 * Models are read from disk through a URL scheme of our own, served by a tfjs load router: Human
 * asks tfjs for `face-models://<folder, URL-encoded>/blazeface.json`, tfjs asks its routers who
 * serves it, and ours reads the file and the weights it names. Nothing is fetched (Node's fetch
 * cannot read file:// URLs, and patching the global fetch would touch every other caller in the
 * process).
 */
const MODEL_SCHEME = 'face-models://';
const modelBasePath = (modelsDir: string) => `${MODEL_SCHEME}${encodeURIComponent(modelsDir)}/`;

/** tfjs instances our router is registered with: once each, or tfjs finds two for one URL and refuses. */
const routed = new WeakSet<object>();

function modelFileRouter(tfio: typeof io) {
  return (url: string | string[]): io.IOHandler | null => {
    if (typeof url !== 'string' || !url.startsWith(MODEL_SCHEME)) return null;
    const rest = url.slice(MODEL_SCHEME.length);
    const slash = rest.lastIndexOf('/');
    const file = path.join(decodeURIComponent(rest.slice(0, slash)), path.basename(rest.slice(slash + 1)));
    return {
      load: async () => {
        const json = JSON.parse(await readFile(file, 'utf8')) as io.ModelJSON;
        return tfio.getModelArtifactsForJSON(json, async (manifest) => {
          const specs = manifest.flatMap((group) => group.weights);
          const chunks = await Promise.all(
            manifest.flatMap((group) => group.paths).map((p) => readFile(path.join(path.dirname(file), path.basename(p)))),
          );
          return [specs, tfio.concatenateArrayBuffers(chunks.map((c) => new Uint8Array(c).buffer))];
        });
      },
    };
  };
}

/** Only what the checks use: the face detector, its mesh (for alignment) and the descriptor. */
function humanConfig(modelsDir: string, wasmDir: string): Partial<Config> {
  const off = { enabled: false };
  return {
    backend: 'wasm',
    wasmPath: wasmDir.endsWith(path.sep) ? wasmDir : wasmDir + path.sep,
    modelBasePath: modelBasePath(modelsDir),
    debug: false,
    cacheModels: false,
    warmup: 'none',
    // Human reuses the last result for similar frames of a video; photos are never frames.
    cacheSensitivity: 0,
    filter: off,
    gesture: off,
    body: off,
    hand: off,
    object: off,
    segmentation: off,
    face: {
      enabled: true,
      detector: {
        rotation: true,
        maxDetected: 10,
        // Candidates from a low floor; the checks count faces at minFaceConfidence.
        minConfidence: 0.3,
        skipFrames: 0,
        skipTime: 0,
        return: false,
      },
      mesh: { enabled: true },
      iris: off,
      attention: off,
      emotion: off,
      antispoof: off,
      liveness: off,
      gear: off,
      description: { enabled: true, skipFrames: 0, skipTime: 0 },
    },
  };
}

let loading: Promise<{ human: Human; load: FaceModelLoad }> | undefined;

/**
 * Loads Human once per process (later calls return the first load, whatever their options).
 * Folders come from the options, then FACE_MODELS_DIR / FACE_WASM_DIR, then the packages. A failed
 * load is forgotten so the next call tries again.
 */
export function loadFaceModel(options: FaceModelOptions = {}): Promise<FaceModelLoad> {
  return faceModel(options).then((model) => model.load);
}

function faceModel(options: FaceModelOptions = {}) {
  loading ??= (async () => {
    const started = performance.now();
    const modelsDir = options.modelsDir ?? process.env.FACE_MODELS_DIR ?? path.join(humanDist(), '..', 'models');
    const wasmDir = options.wasmDir ?? process.env.FACE_WASM_DIR ?? path.dirname(require.resolve('@tensorflow/tfjs-backend-wasm'));
    const { Human: HumanClass } = human();
    const instance = new HumanClass(humanConfig(modelsDir, wasmDir));
    const tfio = instance.tf.io as typeof io;
    if (!routed.has(tfio)) {
      // tfjs's type says a router always returns a handler; routers return null for URLs not theirs.
      tfio.registerLoadRouter(modelFileRouter(tfio) as Parameters<typeof tfio.registerLoadRouter>[0]);
      routed.add(tfio);
    }
    // Human keeps each model in its module once asked for it, loaded or failed, until told this
    // is a first load: so a load after a failed one reads the files again.
    instance.env.initial = true;
    await instance.load();
    // Human logs a failed model load and carries on with an empty model: refuse to run without
    // the weights of the three models.
    const loaded = new Map(instance.models.list().map((model) => [model.name, model.size]));
    const missing = ['blazeface', 'facemesh', 'faceres'].filter((name) => !(Number(loaded.get(name)) > 0));
    if (missing.length > 0) throw new Error(`face models not loaded from ${modelsDir}: ${missing.join(', ')}`);
    const backend = String(instance.tf.getBackend());
    if (backend !== 'wasm') throw new Error(`face models run on ${backend}, expected wasm`);
    return { human: instance, load: { loadMs: Math.round(performance.now() - started), backend, version: instance.version } };
  })();
  loading.catch(() => {
    loading = undefined;
  });
  return loading;
}

/** Detections run one at a time: Human keeps per-run state, and WASM runs on one thread anyway. */
let previous: Promise<unknown> = Promise.resolve();

/** Faces in one upright RGB image, at or above the detector's floor (not yet minFaceConfidence). */
export function detectFaces(rgb: Uint8Array, width: number, height: number): Promise<Result['face']> {
  const run = previous.then(async () => {
    const { human: instance } = await faceModel();
    const tensor = instance.tf.tensor3d(rgb, [height, width, 3], 'int32');
    try {
      const result = await instance.detect(tensor);
      if (result.error) throw new Error(`face detection failed: ${result.error}`);
      return result.face;
    } finally {
      tensor.dispose();
    }
  });
  previous = run.catch(() => undefined);
  return run;
}
