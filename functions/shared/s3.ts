import { createWriteStream } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import {
  DeleteObjectCommand,
  GetObjectCommand,
  HeadObjectCommand,
  ListObjectsV2Command,
  PutObjectCommand,
  PutObjectTaggingCommand,
  S3Client,
} from '@aws-sdk/client-s3';
import type * as Presigner from '@aws-sdk/s3-request-presigner';

/**
 * The presigner, loaded at the first URL signed: most of the functions that reach a bucket read
 * and write objects and never sign a URL, and the package is a good part of S3's cold import
 * (decision 064).
 */
const getSignedUrl: typeof Presigner.getSignedUrl = async (...args) =>
  (await import('@aws-sdk/s3-request-presigner')).getSignedUrl(...args);

/*
 * One S3 client per container. Checksums only when S3 requires them: the SDK's default adds a
 * CRC32 of an empty body to presigned PUT URLs, which a browser's upload of the real file then
 * fails. The endpoint comes from AWS_ENDPOINT_URL_S3 (the local twin's emulator).
 */
let s3: S3Client | undefined;
function s3Client(): S3Client {
  s3 ??= new S3Client({
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
  });
  return s3;
}

/**
 * The one way functions reach a bucket's objects: S3 in the cloud and on the twin
 * (`s3Bucket`), a map in tests (`memoryBucket`). Services receive a `Bucket` (or the part of it
 * they use) as a dependency; nothing else builds S3 commands or presigns URLs.
 */
export interface Bucket {
  readonly name: string;
  /** Size in bytes, or undefined when there is no such object. */
  size(key: string): Promise<number | undefined>;
  read(key: string): Promise<Buffer>;
  /** `length` bytes from `start` (fewer when the object is shorter). */
  readRange(key: string, start: number, length: number): Promise<Buffer>;
  /** Streams the object to a local file (for zips too big to hold in memory). */
  download(key: string, file: string): Promise<void>;
  write(key: string, body: Buffer, contentType: string): Promise<void>;
  /** Deletes; a key that does not exist is not an error. */
  remove(key: string): Promise<void>;
  list(prefix: string): Promise<string[]>;
  /** Replaces the object's tags (a lifecycle rule may expire objects by tag). */
  tag(key: string, tags: Record<string, string>): Promise<void>;
  /** A presigned GET; with `filename` the browser saves it under that name, as `contentType`. */
  getUrl(key: string, options: { expiresIn: number; filename?: string; contentType?: string }): Promise<string>;
  /**
   * A presigned PUT of exactly `contentType` and `contentLength` that only creates (`If-None-Match: *`):
   * the browser must send those headers as signed, and cannot overwrite an object.
   */
  createUrl(key: string, options: { expiresIn: number; contentType: string; contentLength: number }): Promise<string>;
}

const isNotFound = (err: unknown) => {
  const e = err as { name?: string; $metadata?: { httpStatusCode?: number } };
  return e?.name === 'NotFound' || e?.name === 'NoSuchKey' || e?.$metadata?.httpStatusCode === 404;
};

/** A bucket through S3 (the container's client unless one is given). */
export function s3Bucket(name: string, s3: S3Client = s3Client()): Bucket {
  const body = async (key: string, range?: string) => {
    const out = await s3.send(new GetObjectCommand({ Bucket: name, Key: key, Range: range }));
    if (!out.Body) throw new Error('empty object body');
    return out.Body;
  };
  return {
    name,
    async size(key) {
      try {
        const out = await s3.send(new HeadObjectCommand({ Bucket: name, Key: key }));
        return out.ContentLength ?? 0;
      } catch (err) {
        if (isNotFound(err)) return undefined;
        throw err;
      }
    },
    async read(key) {
      return Buffer.from(await (await body(key)).transformToByteArray());
    },
    async readRange(key, start, length) {
      return Buffer.from(await (await body(key, `bytes=${start}-${start + length - 1}`)).transformToByteArray());
    },
    async download(key, file) {
      await pipeline((await body(key)) as Readable, createWriteStream(file));
    },
    async write(key, data, contentType) {
      await s3.send(new PutObjectCommand({ Bucket: name, Key: key, Body: data, ContentType: contentType, ContentLength: data.length }));
    },
    async remove(key) {
      try {
        await s3.send(new DeleteObjectCommand({ Bucket: name, Key: key }));
      } catch (err) {
        if (!isNotFound(err)) throw err;
      }
    },
    async list(prefix) {
      const keys: string[] = [];
      let token: string | undefined;
      do {
        const out = await s3.send(new ListObjectsV2Command({ Bucket: name, Prefix: prefix, ContinuationToken: token }));
        for (const o of out.Contents ?? []) if (o.Key) keys.push(o.Key);
        token = out.IsTruncated ? out.NextContinuationToken : undefined;
      } while (token);
      return keys;
    },
    async tag(key, tags) {
      await s3.send(new PutObjectTaggingCommand({ Bucket: name, Key: key, Tagging: { TagSet: Object.entries(tags).map(([Key, Value]) => ({ Key, Value })) } }));
    },
    getUrl(key, { expiresIn, filename, contentType }) {
      const download = filename ? { ResponseContentDisposition: `attachment; filename="${filename}"`, ResponseContentType: contentType } : {};
      return getSignedUrl(s3, new GetObjectCommand({ Bucket: name, Key: key, ...download }), { expiresIn });
    },
    createUrl(key, { expiresIn, contentType, contentLength }) {
      return getSignedUrl(s3, new PutObjectCommand({ Bucket: name, Key: key, ContentType: contentType, ContentLength: contentLength, IfNoneMatch: '*' }), {
        expiresIn,
        signableHeaders: new Set(['content-type', 'content-length', 'if-none-match']),
      });
    },
  };
}

interface MemoryObject {
  body: Buffer;
  contentType?: string;
  tags?: Record<string, string>;
}

/** A bucket in memory, for tests and benchmarks; its URLs are `memory://<bucket>/<key>?...` and open nothing. */
export function memoryBucket(name = 'memory', objects = new Map<string, MemoryObject>()): Bucket & { objects: Map<string, MemoryObject> } {
  const read = async (key: string) => {
    const o = objects.get(key);
    if (!o) throw Object.assign(new Error('NoSuchKey'), { name: 'NoSuchKey' });
    return o.body;
  };
  const url = (key: string, params: Record<string, string | number | undefined>) => {
    const query = new URLSearchParams(Object.entries(params).flatMap(([k, v]) => (v === undefined ? [] : [[k, String(v)]])));
    return `memory://${name}/${encodeURI(key)}?${query}`;
  };
  return {
    name,
    objects,
    async size(key) {
      return objects.get(key)?.body.length;
    },
    read,
    async readRange(key, start, length) {
      return (await read(key)).subarray(start, start + length);
    },
    async download(key, file) {
      await writeFile(file, await read(key));
    },
    async write(key, body, contentType) {
      objects.set(key, { body, contentType });
    },
    async remove(key) {
      objects.delete(key);
    },
    async list(prefix) {
      return [...objects.keys()].filter((k) => k.startsWith(prefix)).sort();
    },
    async tag(key, tags) {
      const o = objects.get(key);
      if (!o) throw Object.assign(new Error('NoSuchKey'), { name: 'NoSuchKey' });
      o.tags = { ...tags };
    },
    async getUrl(key, { expiresIn, filename, contentType }) {
      return url(key, { method: 'GET', expiresIn, filename, contentType });
    },
    async createUrl(key, { expiresIn, contentType, contentLength }) {
      return url(key, { method: 'PUT', expiresIn, contentType, contentLength });
    },
  };
}
