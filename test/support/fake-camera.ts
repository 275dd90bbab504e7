// A file Chromium's fake camera plays (`--use-file-for-fake-video-capture`): a still photo as a
// short Y4M video (4:2:0, full-range JPEG colours), so a page's getUserMedia sees that face.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import sharp from 'sharp';

/** Writes `photo` as a Y4M video of `frames` frames at `width` x `height` (even sizes); answers its path. */
export async function fakeCameraFile(photo: Buffer, width = 640, height = 480, frames = 10): Promise<string> {
  const { data } = await sharp(photo).resize(width, height, { fit: 'cover' }).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  const y = Buffer.alloc(width * height);
  const u = Buffer.alloc((width / 2) * (height / 2));
  const v = Buffer.alloc((width / 2) * (height / 2));
  const clamp = (n: number) => Math.max(0, Math.min(255, Math.round(n)));
  for (let row = 0; row < height; row += 1) {
    for (let col = 0; col < width; col += 1) {
      const i = (row * width + col) * 3;
      y[row * width + col] = clamp(0.299 * data[i]! + 0.587 * data[i + 1]! + 0.114 * data[i + 2]!);
    }
  }
  for (let row = 0; row < height; row += 2) {
    for (let col = 0; col < width; col += 2) {
      let r = 0;
      let g = 0;
      let b = 0;
      for (const [dr, dc] of [[0, 0], [0, 1], [1, 0], [1, 1]] as const) {
        const i = ((row + dr) * width + col + dc) * 3;
        r += data[i]!;
        g += data[i + 1]!;
        b += data[i + 2]!;
      }
      r /= 4;
      g /= 4;
      b /= 4;
      const at = (row / 2) * (width / 2) + col / 2;
      u[at] = clamp(128 - 0.168736 * r - 0.331264 * g + 0.5 * b);
      v[at] = clamp(128 + 0.5 * r - 0.418688 * g - 0.081312 * b);
    }
  }
  const frame = Buffer.concat([Buffer.from('FRAME\n'), y, u, v]);
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'fake-camera-')), 'camera.y4m');
  fs.writeFileSync(file, Buffer.concat([Buffer.from(`YUV4MPEG2 W${width} H${height} F30:1 Ip A1:1 C420jpeg\n`), ...Array.from({ length: frames }, () => frame)]));
  return file;
}

/** Chromium's flags for a fake camera playing `file`, without asking the user. */
export const fakeCameraArgs = (file: string) => ['--use-fake-device-for-media-stream', '--use-fake-ui-for-media-stream', `--use-file-for-fake-video-capture=${file}`];
