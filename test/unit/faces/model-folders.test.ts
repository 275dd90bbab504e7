// The model and WASM folders can be moved (in Lambda they sit beside the bundle): the loader reads
// them from its options or from FACE_MODELS_DIR / FACE_WASM_DIR, and a failed load can be retried.
// Each attempt below loads the library afresh (jest.isolateModulesAsync), as a new process would.
import fs, { mkdtempSync, readdirSync, rmSync, symlinkSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { photoOf } from './fixtures';

type Faces = typeof import('../../../functions/founding/faces');

const load = createRequire(__filename);
const packageModels = path.join(path.dirname(load.resolve('@vladmandic/human')), '..', 'models');
const packageWasm = path.dirname(load.resolve('@tensorflow/tfjs-backend-wasm'));
let root: string;

/** A new folder with links to the files of `from` that `keep` picks. */
function linked(name: string, from: string, keep: (file: string) => boolean): string {
  const dir = mkdtempSync(path.join(root, name));
  for (const file of readdirSync(from).filter(keep)) symlinkSync(path.join(from, file), path.join(dir, file));
  return dir;
}

async function fresh<T>(run: (faces: Faces) => Promise<T>): Promise<T> {
  let result: Promise<T> | undefined;
  await jest.isolateModulesAsync(async () => {
    result = run(await import('../../../functions/founding/faces'));
    await result.catch(() => undefined);
  });
  return result!;
}

/** Human logs each model it fails to load (to console.log); the tests expect those failures. */
const quietHuman = () => jest.spyOn(console, 'log').mockImplementation(() => undefined);

beforeAll(() => {
  root = mkdtempSync(path.join(tmpdir(), 'face-models-'));
});
afterEach(() => {
  jest.restoreAllMocks();
});
afterAll(() => {
  rmSync(root, { recursive: true, force: true });
  delete process.env.FACE_MODELS_DIR;
  delete process.env.FACE_WASM_DIR;
});

const threeModels = (file: string) => /^(blazeface|facemesh|faceres)\.(json|bin)$/.test(file);

// First in the file: tfjs keeps its backend in a global, so only the first load reads WASM.
it('reads the WASM binaries from FACE_WASM_DIR and the models from FACE_MODELS_DIR', async () => {
  const wasmDir = linked('wasm with spaces-', packageWasm, (file) => file.endsWith('.wasm'));
  process.env.FACE_WASM_DIR = wasmDir;
  process.env.FACE_MODELS_DIR = linked('models-', packageModels, threeModels);
  const readsSync = jest.spyOn(fs, 'readFileSync');
  const reads = jest.spyOn(fs, 'readFile');
  const photo = await photoOf('detect0');
  const analysis = await fresh(async (faces) => {
    await expect(faces.loadFaceModel()).resolves.toMatchObject({ backend: 'wasm' });
    return faces.analyzePhoto(photo);
  });
  const files = [...readsSync.mock.calls, ...reads.mock.calls].map(([file]) => String(file));
  expect(files.filter((file) => file.startsWith(wasmDir) && file.endsWith('.wasm'))).toHaveLength(1);
  expect(files.filter((file) => file.startsWith(packageWasm))).toEqual([]);
  expect(analysis.faceCount).toBe(1);
}, 60_000);

it('refuses to run without one of its models', async () => {
  quietHuman();
  process.env.FACE_MODELS_DIR = linked('no-faceres-', packageModels, (file) => threeModels(file) && !file.startsWith('faceres'));
  await expect(fresh((faces) => faces.loadFaceModel())).rejects.toThrow(/face models not loaded from .*no-faceres-.*: faceres$/);
}, 60_000);

it('loads again after a failed load, from the folders in its options', async () => {
  const models = linked('models-', packageModels, threeModels);
  const wasmDir = linked('wasm-', packageWasm, (file) => file.endsWith('.wasm'));
  const empty = mkdtempSync(path.join(root, 'empty-'));
  quietHuman();
  const loads = await fresh(async (faces) => {
    await expect(faces.loadFaceModel({ modelsDir: empty, wasmDir })).rejects.toThrow(/blazeface, facemesh, faceres/);
    return faces.loadFaceModel({ modelsDir: models, wasmDir });
  });
  expect(loads).toMatchObject({ backend: 'wasm' });
}, 60_000);
