import { createWriteStream } from 'node:fs';
import { pipeline } from 'node:stream/promises';
import type { Readable } from 'node:stream';
import {
  DeleteObjectCommand,
  GetObjectCommand,
  HeadObjectCommand,
  ListObjectsV2Command,
  PutObjectCommand,
  PutObjectTaggingCommand,
  type S3Client,
} from '@aws-sdk/client-s3';
import { s3Client } from '../../shared/s3';

/** The few object operations the photo steps need; S3 in the cloud and the twin, a map in tests. */
export interface PhotoStorage {
  /** Size in bytes, or undefined when there is no such object. */
  size(key: string): Promise<number | undefined>;
  read(key: string): Promise<Buffer>;
  /** Streams the object to a local file (for zips too big to hold in memory). */
  download(key: string, file: string): Promise<void>;
  write(key: string, body: Buffer, contentType: string): Promise<void>;
  /** Deletes; a key that does not exist is not an error. */
  remove(key: string): Promise<void>;
  list(prefix: string): Promise<string[]>;
  /** Replaces the object's tags (the lifecycle backstop expires objects by tag). */
  tag(key: string, tags: Record<string, string>): Promise<void>;
}

const isNotFound = (err: unknown) => {
  const e = err as { name?: string; $metadata?: { httpStatusCode?: number } };
  return e?.name === 'NotFound' || e?.name === 'NoSuchKey' || e?.$metadata?.httpStatusCode === 404;
};

export function s3PhotoStorage(bucket: string, s3: S3Client = s3Client()): PhotoStorage {
  const body = async (key: string) => {
    const out = await s3.send(new GetObjectCommand({ Bucket: bucket, Key: key }));
    if (!out.Body) throw new Error('empty object body');
    return out.Body;
  };
  return {
    async size(key) {
      try {
        const out = await s3.send(new HeadObjectCommand({ Bucket: bucket, Key: key }));
        return out.ContentLength ?? 0;
      } catch (err) {
        if (isNotFound(err)) return undefined;
        throw err;
      }
    },
    async read(key) {
      return Buffer.from(await (await body(key)).transformToByteArray());
    },
    async download(key, file) {
      await pipeline((await body(key)) as Readable, createWriteStream(file));
    },
    async write(key, data, contentType) {
      await s3.send(new PutObjectCommand({ Bucket: bucket, Key: key, Body: data, ContentType: contentType, ContentLength: data.length }));
    },
    async remove(key) {
      try {
        await s3.send(new DeleteObjectCommand({ Bucket: bucket, Key: key }));
      } catch (err) {
        if (!isNotFound(err)) throw err;
      }
    },
    async list(prefix) {
      const keys: string[] = [];
      let token: string | undefined;
      do {
        const out = await s3.send(new ListObjectsV2Command({ Bucket: bucket, Prefix: prefix, ContinuationToken: token }));
        for (const o of out.Contents ?? []) if (o.Key) keys.push(o.Key);
        token = out.IsTruncated ? out.NextContinuationToken : undefined;
      } while (token);
      return keys;
    },
    async tag(key, tags) {
      await s3.send(
        new PutObjectTaggingCommand({ Bucket: bucket, Key: key, Tagging: { TagSet: Object.entries(tags).map(([Key, Value]) => ({ Key, Value })) } }),
      );
    },
  };
}

/** A storage in memory: tests and benchmarks. */
export function memoryPhotoStorage(objects = new Map<string, { body: Buffer; contentType?: string; tags?: Record<string, string> }>()) {
  const storage: PhotoStorage & { objects: typeof objects } = {
    objects,
    async size(key) {
      return objects.get(key)?.body.length;
    },
    async read(key) {
      const o = objects.get(key);
      if (!o) throw Object.assign(new Error('NoSuchKey'), { name: 'NoSuchKey' });
      return o.body;
    },
    async download(key, file) {
      const { writeFile } = await import('node:fs/promises');
      await writeFile(file, await storage.read(key));
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
  };
  return storage;
}
