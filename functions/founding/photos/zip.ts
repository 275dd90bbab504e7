import type { Readable } from 'node:stream';
import * as yauzl from 'yauzl';
import { isCountedZipEntry, ZIP_LIMITS } from '../../../events/founding-values';
import { REFUSAL } from './reasons';
import { sniff } from './sniff';
import { isUnsafeEntryName } from './zip-directory';

/** An entry of a zip: its bytes to check as a photo, or why it was not extracted. */
export type ZipItem = { path: string; bytes: Buffer } | { path: string; reason: string };

export interface ZipOutcome {
  /** Set when the zip as a whole could not be read (entries delivered before stay delivered). */
  error?: string;
  entries: number;
  /** The caller said stop (its limits were reached) before the zip's end. */
  stopped?: boolean;
}

/** Entries that are not content: folders and the metadata macOS and Windows add to zips. */
function isNoise(path: string): boolean {
  if (path.endsWith('/')) return true;
  if (path.startsWith('__MACOSX/')) return true;
  const base = path.slice(path.lastIndexOf('/') + 1);
  return base.startsWith('.') || base.toLowerCase() === 'thumbs.db' || base.toLowerCase() === 'desktop.ini';
}

function pathProblem(path: string): string | undefined {
  return isUnsafeEntryName(path) ? REFUSAL.zipPathEscapes : undefined;
}

function openZip(source: string | Buffer): Promise<yauzl.ZipFile> {
  // decodeStrings: false so a bad path refuses one entry (with a reason) instead of the whole zip.
  const options = { lazyEntries: true, autoClose: true, decodeStrings: false, validateEntrySizes: true };
  return new Promise((resolve, reject) => {
    const callback = (err: Error | null, zip?: yauzl.ZipFile) => (err || !zip ? reject(err ?? new Error('no zip')) : resolve(zip));
    if (typeof source === 'string') yauzl.open(source, options, callback);
    else yauzl.fromBuffer(source, options, callback);
  });
}

function openStream(zip: yauzl.ZipFile, entry: yauzl.Entry): Promise<Readable> {
  return new Promise((resolve, reject) => zip.openReadStream(entry, (err, stream) => (err || !stream ? reject(err ?? new Error('no stream')) : resolve(stream))));
}

/** Reads a stream to a buffer, giving up past `limit` bytes whatever the entry declared. */
async function readAll(stream: Readable, limit: number): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of stream) {
    size += (chunk as Buffer).length;
    if (size > limit) {
      stream.destroy();
      throw new Error('entry larger than declared limit');
    }
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks);
}

/**
 * Walks the entries of a zip (a local file path, or its bytes) one at a time (yauzl `lazyEntries`), within ZIP_LIMITS: entry
 * count, uncompressed size per entry and in total, compression ratio, no nested zips, no
 * absolute, `..` or backslash paths. Declared sizes are enforced while inflating
 * (`validateEntrySizes` and our own byte cap), so a lying header cannot inflate past a limit.
 * `onItem` is awaited before the next entry is read: the caller's backpressure.
 */
export async function readZip(source: string | Buffer, onItem: (item: ZipItem) => Promise<void | 'stop'>): Promise<ZipOutcome> {
  let zip: yauzl.ZipFile;
  try {
    zip = await openZip(source);
  } catch {
    return { error: REFUSAL.zipUnreadable, entries: 0 };
  }
  if (zip.entryCount > ZIP_LIMITS.maxEntries) {
    zip.close();
    return { error: REFUSAL.zipTooManyEntries(zip.entryCount), entries: zip.entryCount };
  }

  let total = 0;
  let entries = 0;
  const next = (): Promise<yauzl.Entry | undefined> =>
    new Promise((resolve, reject) => {
      const onEntry = (entry: yauzl.Entry) => done(() => resolve(entry));
      const onEnd = () => done(() => resolve(undefined));
      const onError = (err: Error) => done(() => reject(err));
      const done = (settle: () => void) => {
        zip.off('entry', onEntry).off('end', onEnd).off('error', onError);
        settle();
      };
      zip.on('entry', onEntry).on('end', onEnd).on('error', onError);
      zip.readEntry();
    });

  for (;;) {
    let entry: yauzl.Entry | undefined;
    try {
      entry = await next();
    } catch {
      // The central directory itself is damaged: what was delivered stays delivered.
      zip.close();
      return { error: REFUSAL.zipUnreadable, entries };
    }
    if (!entry) break;
    entries += 1;
    const outcome = await visit(entry);
    if (outcome === 'stop') {
      zip.close();
      return { entries, stopped: true };
    }
  }
  return { entries };

  /** One entry: refused with a reason, skipped (folders, metadata), or inflated and handed over. */
  async function visit(entry: yauzl.Entry): Promise<void | 'stop'> {
    const raw = entry.fileName as unknown as Buffer;
    const path = yauzl.getFileNameLowLevel(entry.generalPurposeBitFlag, raw, entry.extraFields, true);
    const problem = pathProblem(path);
    if (problem) return onItem({ path, reason: problem });
    if (isNoise(path)) return;
    if (path.toLowerCase().endsWith('.zip')) return onItem({ path, reason: REFUSAL.zipNested });
    // Signup counted the zip's photos by this rule (isCountedZipEntry); anything else is refused by its name, not inflated.
    if (!isCountedZipEntry(path)) return onItem({ path, reason: REFUSAL.notImage });
    if (entry.isEncrypted()) {
      return onItem({ path, reason: REFUSAL.zipEncrypted });
    }
    if (entry.uncompressedSize > ZIP_LIMITS.maxEntryBytes) {
      return onItem({ path, reason: REFUSAL.tooManyBytes(entry.uncompressedSize, ZIP_LIMITS.maxEntryBytes) });
    }
    const ratio = entry.compressedSize > 0 ? entry.uncompressedSize / entry.compressedSize : entry.uncompressedSize > 0 ? Infinity : 0;
    if (ratio > ZIP_LIMITS.maxRatio) {
      return onItem({ path, reason: REFUSAL.zipRatio(ratio) });
    }
    if (total + entry.uncompressedSize > ZIP_LIMITS.maxTotalBytes) {
      return onItem({ path, reason: REFUSAL.zipTotal });
    }
    total += entry.uncompressedSize;
    let bytes: Buffer;
    try {
      bytes = await readAll(await openStream(zip, entry), Math.min(entry.uncompressedSize, ZIP_LIMITS.maxEntryBytes));
    } catch {
      return onItem({ path, reason: REFUSAL.zipEntryDamaged });
    }
    if (sniff(bytes.subarray(0, 4)) === 'zip') {
      return onItem({ path, reason: REFUSAL.zipNested });
    }
    return onItem({ path, bytes });
  }
}
