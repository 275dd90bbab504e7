import { recordUpload } from '../../../functions/founding/triggers/record-upload/service';
import { decodeS3EventKey } from '../../../functions/founding/triggers/record-upload/key';
import type { FoundingStore, UploadedObject } from '../../../functions/founding/store';
import { memoryBucket } from '../../../functions/shared/s3';
import { encodeS3EventKey } from '../../../infra/local/s3-event-key';

// Keys as S3 writes them into its events (docs: "red flower.jpg" becomes "red+flower.jpg").
const cases: Array<[raw: string, encoded: string]> = [
  ['red flower.jpg', 'red+flower.jpg'],
  ['pending/ada@example.com/1.jpg', 'pending/ada%40example.com/1.jpg'],
  ['pending/a+b/c.jpg', 'pending/a%2Bb/c.jpg'],
  ['pending/x/Ünïcødé 写真.png', 'pending/x/%C3%9Cn%C3%AFc%C3%B8d%C3%A9+%E5%86%99%E7%9C%9F.png'],
  ['pending/x/test_file(3).png', 'pending/x/test_file%283%29.png'],
  ['pending/AZaz09-_.*/k.zip', 'pending/AZaz09-_.*/k.zip'],
];

describe('S3 event keys', () => {
  it.each(cases)('the twin encodes %s as S3 does', (raw, encoded) => {
    expect(encodeS3EventKey(raw)).toBe(encoded);
  });

  it.each(cases)('the recorder decodes the event key of %s back to the stored key', (raw, encoded) => {
    expect(decodeS3EventKey(encoded)).toBe(raw);
  });

  it('refuses a key that is not valid percent-encoding', () => {
    expect(decodeS3EventKey('pending/x/%E5%86.jpg')).toBeUndefined();
    expect(decodeS3EventKey('pending/x/100%.jpg')).toBeUndefined();
  });

  it('records the upload under the decoded key', async () => {
    const recorded: Array<[string, string]> = [];
    const store = {
      now: () => new Date('2026-01-01T00:00:00Z'),
      recordUploadedObject: async (owner: string, key: string, _upload: UploadedObject) => {
        recorded.push([owner, key]);
        return true;
      },
    } as unknown as FoundingStore;
    const deps = { store, photos: memoryBucket('photos') };
    const raw = 'pending/0123456789abcdef0123456789abcdef/a@b+c d é.jpg';
    const outcome = await recordUpload(deps, { bucket: { name: 'photos' }, object: { key: encodeS3EventKey(raw), size: 10 } });
    expect(outcome).toBe('recorded');
    expect(recorded.map(([, key]) => key)).toEqual([raw]);
  });
});
