// Reads a zip's central directory without downloading the zip: the end-of-central-directory
// record from the file's tail, then the directory itself, each with one ranged read. What the
// directory declares (names, sizes) is what the uploader claims; the workflow checks the real
// bytes. This is enough to count images and refuse obviously unsafe archives early.
import { GetObjectCommand, type S3Client } from '@aws-sdk/client-s3';
import { isCountedZipEntry, ZIP_LIMITS } from '../../events/founding-values';

export interface ZipEntry {
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

const EOCD = 0x06054b50;
const EOCD64_LOCATOR = 0x07064b50;
const EOCD64 = 0x06064b50;
const CENTRAL_ENTRY = 0x02014b50;
const EOCD_MIN = 22;
const MAX_COMMENT = 0xffff;
/** A directory of ZIP_LIMITS.maxEntries entries with long names fits comfortably in this. */
const MAX_DIRECTORY_BYTES = 4 * 1024 * 1024;

/** Entries smaller than this are not judged by their compression ratio. */
const RATIO_FLOOR_BYTES = 1024 * 1024;


/** Absolute paths, drive letters, backslashes and `..` segments are refused (zip slip). */
export function isUnsafeEntryName(name: string): boolean {
  if (name.includes('\\') || name.startsWith('/') || /^[A-Za-z]:/.test(name) || name.includes('\0')) return true;
  return name.split('/').some((segment) => segment === '..');
}

export async function readZipDirectory(size: number, read: RangeReader): Promise<ZipDirectory> {
  if (size < EOCD_MIN) throw new UnreadableZipError('the file is too small to be a zip');
  const tailLength = Math.min(size, EOCD_MIN + MAX_COMMENT + 20);
  const tailStart = size - tailLength;
  const tail = await read(tailStart, tailLength);
  let at = -1;
  for (let i = tail.length - EOCD_MIN; i >= 0; i--) {
    if (tail.readUInt32LE(i) === EOCD) {
      at = i;
      break;
    }
  }
  if (at === -1) throw new UnreadableZipError('the file is not a zip archive');

  let entryCount = tail.readUInt16LE(at + 10);
  let directorySize = tail.readUInt32LE(at + 12);
  let directoryOffset = tail.readUInt32LE(at + 16);
  if (entryCount === 0xffff || directorySize === 0xffffffff || directoryOffset === 0xffffffff) {
    // ZIP64: the locator sits just before the classic record and points at the 64-bit one.
    const locatorAt = at - 20;
    if (locatorAt < 0 || tail.readUInt32LE(locatorAt) !== EOCD64_LOCATOR) throw new UnreadableZipError('the zip64 directory is missing');
    const eocd64Offset = Number(tail.readBigUInt64LE(locatorAt + 8));
    if (eocd64Offset + 56 > size) throw new UnreadableZipError('the zip64 directory is out of range');
    const record = await read(eocd64Offset, 56);
    if (record.readUInt32LE(0) !== EOCD64) throw new UnreadableZipError('the zip64 directory is damaged');
    entryCount = Number(record.readBigUInt64LE(32));
    directorySize = Number(record.readBigUInt64LE(40));
    directoryOffset = Number(record.readBigUInt64LE(48));
  }
  if (entryCount > ZIP_LIMITS.maxEntries) {
    return { entries: [], imageCount: 0, problems: [`it holds ${entryCount} files; a zip may hold at most ${ZIP_LIMITS.maxEntries}`] };
  }
  if (directorySize > MAX_DIRECTORY_BYTES || directoryOffset + directorySize > size) {
    throw new UnreadableZipError('the zip directory is damaged');
  }
  const directory = directorySize > 0 ? await read(directoryOffset, directorySize) : Buffer.alloc(0);
  const entries = parseEntries(directory, entryCount);
  return { entries, imageCount: entries.filter((e) => !e.directory && isCountedZipEntry(e.name)).length, problems: problemsOf(entries) };
}

function parseEntries(directory: Buffer, entryCount: number): ZipEntry[] {
  const entries: ZipEntry[] = [];
  let p = 0;
  for (let n = 0; n < entryCount; n++) {
    if (p + 46 > directory.length || directory.readUInt32LE(p) !== CENTRAL_ENTRY) throw new UnreadableZipError('the zip directory is damaged');
    const flags = directory.readUInt16LE(p + 8);
    let compressedSize = directory.readUInt32LE(p + 20);
    let uncompressedSize = directory.readUInt32LE(p + 24);
    const nameLength = directory.readUInt16LE(p + 28);
    const extraLength = directory.readUInt16LE(p + 30);
    const commentLength = directory.readUInt16LE(p + 32);
    const end = p + 46 + nameLength + extraLength + commentLength;
    if (end > directory.length) throw new UnreadableZipError('the zip directory is damaged');
    const name = directory.subarray(p + 46, p + 46 + nameLength).toString(flags & 0x800 ? 'utf8' : 'latin1');
    // ZIP64 sizes live in the extra field (id 0x0001) when the 32-bit fields are saturated.
    if (compressedSize === 0xffffffff || uncompressedSize === 0xffffffff) {
      const extra = directory.subarray(p + 46 + nameLength, p + 46 + nameLength + extraLength);
      for (let e = 0; e + 4 <= extra.length; ) {
        const id = extra.readUInt16LE(e);
        const len = extra.readUInt16LE(e + 2);
        if (id === 0x0001) {
          let q = e + 4;
          if (uncompressedSize === 0xffffffff && q + 8 <= e + 4 + len) {
            uncompressedSize = Number(extra.readBigUInt64LE(q));
            q += 8;
          }
          if (compressedSize === 0xffffffff && q + 8 <= e + 4 + len) compressedSize = Number(extra.readBigUInt64LE(q));
        }
        e += 4 + len;
      }
    }
    entries.push({ name, compressedSize, uncompressedSize, directory: name.endsWith('/'), encrypted: Boolean(flags & 0x1) });
    p = end;
  }
  return entries;
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

/** Range reads of one S3 object. */
export function s3RangeReader(s3: S3Client, bucket: string, key: string): RangeReader {
  return async (start, length) => {
    const out = await s3.send(new GetObjectCommand({ Bucket: bucket, Key: key, Range: `bytes=${start}-${start + length - 1}` }));
    const bytes = Buffer.from(await out.Body!.transformToByteArray());
    if (bytes.length !== length) throw new UnreadableZipError('the zip could not be read completely');
    return bytes;
  };
}
