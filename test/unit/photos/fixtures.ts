import sharp, { type Sharp } from 'sharp';
import { zipSync, type Zippable } from 'fflate';

/** A photo-like image: a gradient with some noise, so it compresses like a photo, not a flat fill. */
async function pixels(width: number, height: number): Promise<Sharp> {
  const noise = await sharp({ create: { width, height, channels: 3, background: '#808080', noise: { type: 'gaussian', mean: 128, sigma: 40 } } })
    .png()
    .toBuffer();
  return sharp(noise).blur(1.5);
}

const GPS_EXIF = {
  IFD0: { Make: 'TestCam', Model: 'X100', Copyright: 'Applicant' },
  IFD3: { GPSLatitudeRef: 'N', GPSLatitude: '51/1 30/1 0/1', GPSLongitudeRef: 'W', GPSLongitude: '0/1 7/1 0/1' },
};

/** A JPEG carrying EXIF with GPS, optionally an EXIF orientation. */
export async function jpegWithGps(width = 800, height = 600, orientation?: number): Promise<Buffer> {
  let img = (await pixels(width, height)).jpeg({ quality: 85 }).withExif(GPS_EXIF);
  if (orientation) img = img.withMetadata({ orientation }).withExif(GPS_EXIF);
  return img.toBuffer();
}

export async function png(width = 700, height = 900): Promise<Buffer> {
  return (await pixels(width, height)).png().toBuffer();
}

export const pdfNamedJpg = () => Buffer.from('%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n');
export const htmlNamedJpg = () => Buffer.from('<!doctype html><html><body><script>alert(1)</script></body></html>');
export const svg = () =>
  Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" width="1000" height="1000"><rect width="1000" height="1000" fill="red"/></svg>');

/** A valid JPEG cut off part-way through its image data. */
export async function truncatedJpeg(): Promise<Buffer> {
  const full = await jpegWithGps(1200, 900);
  return full.subarray(0, Math.floor(full.length * 0.6));
}

/** A PNG whose header declares `width` x `height` but carries almost no data. */
export function pngHeaderOnly(width = 10_000, height = 10_000): Buffer {
  const crcTable = Array.from({ length: 256 }, (_, n) => {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    return c >>> 0;
  });
  const crc = (buf: Buffer) => {
    let c = 0xffffffff;
    for (const b of buf) c = crcTable[(c ^ b) & 0xff] ^ (c >>> 8);
    return (c ^ 0xffffffff) >>> 0;
  };
  const chunk = (type: string, data: Buffer) => {
    const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
    const out = Buffer.alloc(8 + data.length + 4);
    out.writeUInt32BE(data.length, 0);
    body.copy(out, 4);
    out.writeUInt32BE(crc(body), 8 + data.length);
    return out;
  };
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr[8] = 8; // bit depth
  ihdr[9] = 2; // RGB
  return Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), chunk('IHDR', ihdr), chunk('IDAT', Buffer.alloc(16)), chunk('IEND', Buffer.alloc(0))]);
}

export function zip(entries: Record<string, Buffer | Uint8Array>, level: 0 | 6 | 9 = 6): Buffer {
  const files: Zippable = {};
  for (const [name, data] of Object.entries(entries)) files[name] = [new Uint8Array(data), { level }];
  return Buffer.from(zipSync(files));
}

/** 20 MB of zeros: deflates about 1000:1. */
export const bombEntry = () => Buffer.alloc(20 * 1024 * 1024);
