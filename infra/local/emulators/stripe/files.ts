// Files in the Stripe emulator: what a verification uploads (the document's image, the selfie),
// retrieved and listed over the API as `Stripe.File`, their contents served to the secret key at
// the file's `url` (`/v1/files/:id/contents`, the path files.stripe.com serves them on; requests.ts
// checks the key), and gone once the verification they belong to is redacted.
import type Stripe from 'stripe';
import { type Api, newest, page } from './api';
import { missing } from './form';
import * as o from './objects';
import type { Store } from './store';

/** An uploaded image, as the file's contents are served. */
export interface StoredUpload {
  bytes: Buffer;
  /** Stripe's file `type`: `jpg`, `png` or `webp`. */
  type: string;
  contentType: string;
  filename: string;
}

export class Files {
  readonly files = new Map<string, Stripe.File>();
  private readonly contents = new Map<string, StoredUpload>();

  constructor(private readonly s: Store) {}

  /** Stores an upload as a file of `purpose`; its id. */
  add(purpose: 'identity_document_downloadable' | 'selfie', upload: StoredUpload): string {
    const id = o.newId('file');
    const url = this.s.url(`/v1/files/${id}/contents`);
    this.files.set(id, o.identityFile({ id, purpose, filename: upload.filename, size: upload.bytes.length, type: upload.type, url, created: this.s.clocks.now(null) }));
    this.contents.set(id, upload);
    return id;
  }

  remove(id: string): void {
    this.files.delete(id);
    this.contents.delete(id);
  }

  file(id: string): Stripe.File {
    const f = this.files.get(id);
    if (!f) throw missing('file upload', id, 'file');
    return f;
  }

  /** The bytes of a file (`GET /v1/files/:id/contents`). */
  contentsOf(id: string): StoredUpload {
    this.file(id);
    return this.contents.get(id)!;
  }

  routes(api: Api): void {
    api.on('GET', '/v1/files', (r) => {
      const purpose = r.string('purpose');
      return page(newest(this.files.values()).filter((f) => !purpose || f.purpose === purpose), r, '/v1/files', 'file');
    });
    api.on('GET', '/v1/files/:id', (_r, [id]) => this.file(id));
  }
}
