// Reads a zip's central directory without downloading the zip: yauzl walks the directory over
// ranged reads of the object. What the directory declares (names, sizes) is what the uploader
// claims; the workflow checks the real bytes. This is enough to count images and refuse
// obviously unsafe archives early.
import { Readable } from 'node:stream';
import * as yauzl from 'yauzl';
import { isCountedZipEntry, ZIP_LIMITS } from '../../../events/founding-values';
import type { Bucket } from '../../shared/s3';

interface ZipEntry {
  name: string;
  compressedSize: number;
  uncompressedSize: number;
  directory: boolean;
  encrypted: boolean;
}

export interface ZipDirectory {
  entries: ZipEntry[];
  /** Files with a .jpg/.jpeg/.png name, outside macOS metadata folders and hidden files. */
  imageCount: number;
  /** Every file entry (not folders): what validation would examine, photo or not. */
  fileCount: number;
  /** Reasons the archive would be refused, in words an applicant understands. Empty when fine. */
  problems: string[];
}

export class UnreadableZipError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UnreadableZipError';
  }
}

/** Reads `length` bytes from `start`. */
export type RangeReader = (start: number, length: number) => Promise<Buffer>;

const EOCD_MIN = 22;
/** A directory of ZIP_LIMITS.maxEntries entries with long names fits comfortably in this. */
const MAX_DIRECTORY_BYTES = 4 * 1024 * 1024;
/**
 * yauzl reads the directory in small pieces (two per entry); each fetch brings this much, so
 * a directory costs one or two GETs (the tail read usually holds it all), not hundreds.
 */
const FETCH_BYTES = 256 * 1024;
/** Entries smaller than this are not judged by their compression ratio. */
const RATIO_FLOOR_BYTES = 1024 * 1024;

/** Absolute paths, drive letters, backslashes and `..` segments are refused (zip slip). */
export function isUnsafeEntryName(name: string): boolean {
  return name.includes('\0') || yauzl.validateFileName(name) !== null;
}

/**
 * yauzl's random access over a RangeReader, fetching ahead into one window so the directory's
 * many small reads are served from memory. `read` is answered straight from the window (yauzl
 * allows it; its default pipes a stream per read, which made a 200-entry directory 3-5 times
 * slower). Reads beyond the directory's bound are refused.
 */
class WindowedReader extends yauzl.RandomAccessReader {
  private window: { start: number; bytes: Buffer } | undefined;
  private fetched = 0;
  /** The first error of the underlying reader, to rethrow as itself (a failed GET is not a bad zip). */
  failure: unknown;

  constructor(
    private readonly size: number,
    private readonly source: RangeReader,
  ) {
    super();
  }

  _readStreamForRange(start: number, end: number): Readable {
    return Readable.from(
      (async function* (reader: WindowedReader) {
        yield await reader.bytes(start, end);
      })(this),
      { objectMode: false },
    );
  }

  read(buffer: Buffer, offset: number, length: number, position: number, callback: (err: Error | null) => void): void {
    const done = callback as (err: Error | null, bytesRead?: number) => void;
    this.bytes(position, position + length).then(
      (bytes) => done(null, bytes.copy(buffer, offset)),
      (err: Error) => done(err),
    );
  }

  private async bytes(start: number, end: number): Promise<Buffer> {
    const w = this.window;
    if (!w || start < w.start || end > w.start + w.bytes.length) {
      if (end > this.size) throw new UnreadableZipError('the zip directory is damaged');
      const length = Math.min(this.size, Math.max(end, start + FETCH_BYTES)) - start;
      this.fetched += length;
      if (this.fetched > MAX_DIRECTORY_BYTES + FETCH_BYTES) throw new UnreadableZipError('the zip directory is damaged');
      try {
        this.window = { start, bytes: await this.source(start, length) };
      } catch (err) {
        this.failure ??= err;
        throw err;
      }
    }
    const { start: at, bytes } = this.window!;
    return bytes.subarray(start - at, end - at);
  }
}

/** yauzl's refusals in an applicant's words; our own and the storage's errors pass unchanged. */
function explain(err: unknown, reader: WindowedReader): unknown {
  if (reader.failure !== undefined) return reader.failure;
  if (err instanceof UnreadableZipError) return err;
  const message = (err as Error)?.message ?? '';
  if (/signature not found/.test(message)) return new UnreadableZipError('the file is not a zip archive');
  if (/zip64/.test(message)) return new UnreadableZipError('the zip64 directory is damaged');
  return new UnreadableZipError('the zip directory is damaged');
}

export async function readZipDirectory(size: number, read: RangeReader): Promise<ZipDirectory> {
  if (size < EOCD_MIN) throw new UnreadableZipError('the file is too small to be a zip');
  const reader = new WindowedReader(size, read);
  let zip: yauzl.ZipFile;
  try {
    // Names stay bytes (decodeStrings: false) so an unsafe path becomes a problem, not an error.
    zip = await yauzl.fromRandomAccessReaderPromise(reader, size, { decodeStrings: false, validateEntrySizes: false, autoClose: true });
  } catch (err) {
    throw explain(err, reader);
  }
  if (zip.entryCount > ZIP_LIMITS.maxEntries) {
    zip.close();
    return { entries: [], imageCount: 0, fileCount: zip.entryCount, problems: [`it holds ${zip.entryCount} files; a zip may hold at most ${ZIP_LIMITS.maxEntries}`] };
  }
  const entries: ZipEntry[] = [];
  try {
    for await (const entry of zip.eachEntry()) {
      const name = yauzl.getFileNameLowLevel(entry.generalPurposeBitFlag, entry.fileName as unknown as Buffer, entry.extraFields, false);
      entries.push({
        name,
        compressedSize: entry.compressedSize,
        uncompressedSize: entry.uncompressedSize,
        directory: name.endsWith('/'),
        encrypted: entry.isEncrypted(),
      });
    }
  } catch (err) {
    zip.close();
    throw explain(err, reader);
  }
  return {
    entries,
    imageCount: entries.filter((e) => !e.directory && isCountedZipEntry(e.name)).length,
    fileCount: entries.filter((e) => !e.directory).length,
    problems: problemsOf(entries),
  };
}

function problemsOf(entries: ZipEntry[]): string[] {
  const problems: string[] = [];
  if (entries.some((e) => isUnsafeEntryName(e.name))) problems.push('it contains a file whose path leaves the archive');
  const files = entries.filter((e) => !e.directory);
  if (files.some((e) => /\.zip$/i.test(e.name))) problems.push('it contains another zip; please upload zips that hold photos only');
  if (files.some((e) => e.encrypted)) problems.push('it is password protected');
  if (files.some((e) => e.uncompressedSize > ZIP_LIMITS.maxEntryBytes)) {
    problems.push(`a file in it is larger than ${Math.round(ZIP_LIMITS.maxEntryBytes / 1024 / 1024)} MB`);
  }
  const total = files.reduce((sum, e) => sum + e.uncompressedSize, 0);
  if (total > ZIP_LIMITS.maxTotalBytes) problems.push(`its contents add up to more than ${Math.round(ZIP_LIMITS.maxTotalBytes / 1024 / 1024)} MB`);
  // Small entries (a text file, folder metadata) may compress well; a bomb needs size.
  if (files.some((e) => e.uncompressedSize > RATIO_FLOOR_BYTES && e.uncompressedSize > Math.max(e.compressedSize, 1) * ZIP_LIMITS.maxRatio)) {
    problems.push('it is compressed far more than photos can be, which is how zip bombs look');
  }
  return problems;
}

/** Range reads of one object of a bucket; a short read means the zip is not what its size said. */
export function rangeReaderOf(bucket: Pick<Bucket, 'readRange'>, key: string): RangeReader {
  return async (start, length) => {
    const bytes = await bucket.readRange(key, start, length);
    if (bytes.length !== length) throw new UnreadableZipError('the zip could not be read completely');
    return bytes;
  };
}
