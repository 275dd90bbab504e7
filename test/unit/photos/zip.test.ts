import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { REFUSAL } from '../../../functions/founding/photos/reasons';
import { readZip, type ZipItem } from '../../../functions/founding/photos/zip';
import { bombEntry, jpegWithGps, zip } from './fixtures';

async function collect(source: string | Buffer) {
  const items: ZipItem[] = [];
  const outcome = await readZip(source, async (item) => {
    items.push(item);
  });
  const view = items.map((i) => ('reason' in i ? [i.path, i.reason] : [i.path, i.bytes.length]));
  return { outcome, items, view };
}

describe('readZip', () => {
  let photo: Buffer;
  beforeAll(async () => {
    photo = await jpegWithGps(600, 600);
  });

  test('delivers the entries in order, skipping folders and macOS metadata', async () => {
    const { outcome, view } = await collect(
      zip({ 'shoot/': Buffer.alloc(0), 'shoot/a.jpg': photo, '__MACOSX/shoot/._a.jpg': Buffer.alloc(10), 'shoot/.DS_Store': Buffer.alloc(5), 'b.JPG': photo }),
    );
    expect(outcome).toEqual({ entries: 5 });
    expect(view).toEqual([
      ['shoot/a.jpg', photo.length],
      ['b.JPG', photo.length],
    ]);
  });

  test('refuses entries whose path escapes the archive: .., absolute, drive letters, backslashes', async () => {
    const { view } = await collect(zip({ '../evil.jpg': photo, 'a/../../b.jpg': photo, '/etc/c.jpg': photo, 'C:/d.jpg': photo, 'x\\..\\e.jpg': photo, 'fine.jpg': photo }));
    expect(view).toEqual([
      ['../evil.jpg', REFUSAL.zipPathEscapes],
      ['a/../../b.jpg', REFUSAL.zipPathEscapes],
      ['/etc/c.jpg', REFUSAL.zipPathEscapes],
      ['C:/d.jpg', REFUSAL.zipPathEscapes],
      ['x\\..\\e.jpg', 'zip entry path escapes the archive'],
      ['fine.jpg', photo.length],
    ]);
  });

  test('does not open nested zips, by name or by their bytes', async () => {
    const inner = zip({ 'a.jpg': photo });
    const { view } = await collect(zip({ 'inner.zip': inner, 'disguised.jpg': inner }));
    expect(view).toEqual([
      ['inner.zip', REFUSAL.zipNested],
      ['disguised.jpg', 'zip inside a zip is not opened'],
    ]);
  });

  test('refuses a zip bomb entry by its compression ratio, without inflating it', async () => {
    const bomb = zip({ 'bomb.jpg': bombEntry(), 'ok.jpg': photo }, 9);
    expect(bomb.length).toBeLessThan(200_000);
    const { view } = await collect(bomb);
    expect(view[0][0]).toBe('bomb.jpg');
    expect(view[0][1]).toMatch(/^zip entry compresses \d+:1, more than 100:1/);
    expect(view[1]).toEqual(['ok.jpg', photo.length]);
  });

  test('refuses an entry larger than the per-entry limit', async () => {
    // Stored (level 0), so the ratio is 1:1 and only the size limit applies.
    const big = Buffer.alloc(26 * 1024 * 1024, 1);
    const { view } = await collect(zip({ 'huge.jpg': big }, 0));
    expect(view).toEqual([['huge.jpg', 'file too big: 26 MB, the limit is 25 MB']]);
  });

  test('refuses a zip with more entries than allowed, as a whole', async () => {
    const many: Record<string, Buffer> = {};
    for (let i = 0; i < 201; i++) many[`p${i}.jpg`] = Buffer.from([i & 255]);
    const { outcome, items } = await collect(zip(many));
    expect(outcome.error).toBe('zip has 201 entries, the limit is 200');
    expect(items).toHaveLength(0);
  });

  test('a zip cut short (its central directory lost) is refused whole', async () => {
    const full = zip({ 'a.jpg': photo, 'b.jpg': photo });
    expect((await collect(full.subarray(0, Math.floor(full.length / 2)))).outcome).toEqual({ error: REFUSAL.zipUnreadable, entries: 0 });
  });

  test('something that is not a zip is refused whole', async () => {
    expect((await collect(Buffer.from('not a zip at all'))).outcome).toEqual({ error: REFUSAL.zipUnreadable, entries: 0 });
  });

  test('reads a zip from a file as well as from memory', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'zip-test-'));
    try {
      const file = join(dir, 'upload');
      await writeFile(file, zip({ 'a.jpg': photo, 'b.png': photo }));
      const { view } = await collect(file);
      expect(view).toEqual([
        ['a.jpg', photo.length],
        ['b.png', photo.length],
      ]);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
