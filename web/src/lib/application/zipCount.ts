// Counts the photos in a zip from its central directory, with fflate. Loaded with import() only
// when someone picks a zip, so fflate never weighs on the page itself.
import { unzipSync } from 'fflate';
import { isCountedZipEntry } from '../../../../events/founding-values';

const EOCD = 0x06054b50;
const EOCD_LENGTH = 22;
const MAX_COMMENT = 0xffff;

function countIn(data: Uint8Array): number {
  let images = 0;
  // The filter sees each central-directory entry; returning false skips the entry's data.
  unzipSync(data, {
    filter: (entry) => {
      if (isCountedZipEntry(entry.name)) images++;
      return false;
    },
  });
  return images;
}

/**
 * Reads only the file's tail and its central directory (a zip may be hundreds of megabytes):
 * the directory followed by an end record that points at offset 0 is a zip fflate can list.
 * ZIP64 archives, rare at these sizes, are read whole.
 */
export async function countZipImages(file: Blob): Promise<number> {
  const tailLength = Math.min(file.size, EOCD_LENGTH + MAX_COMMENT);
  const tailStart = file.size - tailLength;
  const tail = new Uint8Array(await file.slice(tailStart).arrayBuffer());
  const view = new DataView(tail.buffer);
  let at = -1;
  for (let i = tail.length - EOCD_LENGTH; i >= 0; i--) {
    if (view.getUint32(i, true) === EOCD) {
      at = i;
      break;
    }
  }
  if (at < 0) throw new Error('not a zip archive');
  const entries = view.getUint16(at + 10, true);
  const size = view.getUint32(at + 12, true);
  const offset = view.getUint32(at + 16, true);
  if (entries === 0) return 0;
  if (entries === 0xffff || size === 0xffffffff || offset === 0xffffffff || offset + size > file.size) {
    return countIn(new Uint8Array(await file.arrayBuffer()));
  }
  const directory = new Uint8Array(await file.slice(offset, offset + size).arrayBuffer());
  const data = new Uint8Array(size + EOCD_LENGTH);
  data.set(directory, 0);
  data.set(tail.subarray(at, at + EOCD_LENGTH), size);
  const end = new DataView(data.buffer, size);
  end.setUint32(16, 0, true); // the directory now starts the buffer
  end.setUint16(20, 0, true); // no comment
  return countIn(data);
}
