import type { Angle, Expression, Flaw, Framing, Light } from '../../components/PhotoTile';

/** Photo rules stated by the guide (docs/product.md#founding-limits). */
export const PHOTO_RULES = {
  minPhotos: 30,
  maxPhotos: 80,
  recommendedMin: 30,
  recommendedMax: 50,
  /** The shorter side of each photo, in pixels. */
  minResolutionPx: 1024,
  formats: 'JPEG or PNG',
} as const;

interface VarietyTile {
  caption: string;
  angle?: Angle;
  expression?: Expression;
  framing?: Framing;
  light?: Light;
  outfit?: number;
}

export interface VarietyGroup {
  id: string;
  title: string;
  body: string;
  tiles: readonly VarietyTile[];
}

export const VARIETY: readonly VarietyGroup[] = [
  {
    id: 'angles',
    title: 'Angles',
    body: 'Face the camera, then turn a little each way and show your profile. The model learns your face in 3D.',
    tiles: [
      { caption: 'Straight on', angle: 'front' },
      { caption: 'Three-quarter left', angle: 'left', outfit: 1 },
      { caption: 'Three-quarter right', angle: 'right', outfit: 2 },
      { caption: 'Profile', angle: 'profile', expression: 'neutral', outfit: 4 },
    ],
  },
  {
    id: 'lighting',
    title: 'Lighting',
    body: 'Mix daylight, golden hour, soft indoor light and open shade. Avoid harsh flash and deep shadows over your eyes.',
    tiles: [
      { caption: 'Daylight', light: 'day' },
      { caption: 'Golden hour', light: 'golden', outfit: 4, angle: 'left' },
      { caption: 'Soft indoor light', light: 'indoor', outfit: 2, angle: 'right' },
      { caption: 'Open shade', light: 'shade', outfit: 1 },
    ],
  },
  {
    id: 'expressions',
    title: 'Expressions',
    body: 'Relaxed, smiling, laughing, serious: show the range clients will ask for, not one practised smile.',
    tiles: [
      { caption: 'Relaxed', expression: 'neutral', framing: 'close', light: 'indoor' },
      { caption: 'Smiling', expression: 'smile', framing: 'close', light: 'day', outfit: 1 },
      { caption: 'Laughing', expression: 'laugh', framing: 'close', light: 'golden', outfit: 2 },
      { caption: 'Serious', expression: 'serious', framing: 'close', light: 'studio', outfit: 4 },
    ],
  },
  {
    id: 'framing',
    title: 'Framing',
    body: 'Include close-ups, head and shoulders, half-body and full-length shots in different outfits and places.',
    tiles: [
      { caption: 'Close-up', framing: 'close', light: 'day' },
      { caption: 'Head and shoulders', framing: 'shoulders', light: 'indoor', outfit: 2 },
      { caption: 'Half body', framing: 'half', light: 'shade', outfit: 1 },
      { caption: 'Full length', framing: 'full', light: 'golden', outfit: 3 },
    ],
  },
];

/** The suggested mix of a set, in percent of the photos. */
export const SUGGESTED_MIX = [
  { label: 'Close-ups', share: 40, className: 'mix--close' },
  { label: 'Head, shoulders and half body', share: 35, className: 'mix--half' },
  { label: 'Full length', share: 25, className: 'mix--full' },
] as const;

export const AVOID: readonly { flaw: Flaw; title: string; body: string }[] = [
  { flaw: 'filter', title: 'Filters and heavy edits', body: 'Beauty filters, face smoothing and colour effects teach the model a face that is not yours.' },
  { flaw: 'sunglasses', title: 'Sunglasses and face coverings', body: 'Your eyes matter most. Take off sunglasses, hats that shade your face, and masks.' },
  { flaw: 'group', title: 'Group photos', body: 'Only you in the frame. Cropping friends out leaves stray faces and hands behind.' },
  { flaw: 'makeup', title: 'Heavy makeup changes', body: 'Wear your everyday look. Dramatic or theatrical makeup in a few photos confuses the model.' },
  { flaw: 'blur', title: 'Blurry photos', body: 'Every photo must be sharp on your eyes. Skip motion blur and missed focus.' },
  { flaw: 'lowres', title: 'Low resolution', body: 'No screenshots, thumbnails or photos sent through messaging apps that shrink them.' },
];

export const REQUIREMENTS: readonly { term: string; detail: string }[] = [
  { term: 'Number of photos', detail: `${PHOTO_RULES.minPhotos} to ${PHOTO_RULES.maxPhotos} photos; we recommend ${PHOTO_RULES.recommendedMin} to ${PHOTO_RULES.recommendedMax}.` },
  { term: 'File format', detail: 'JPEG (.jpg, .jpeg) or PNG only. Convert HEIC photos from iPhones before uploading.' },
  { term: 'Resolution', detail: `At least ${PHOTO_RULES.minResolutionPx} pixels on the shorter side. The original file from your camera or phone is best.` },
  { term: 'Who is in the photo', detail: 'Only you, at 18 or older, with your face clearly visible.' },
  { term: 'How recent', detail: 'Taken in the last 12 months, so they look like you today.' },
  { term: 'Clean images', detail: 'No watermarks, text, stickers, borders or collages.' },
];

export const CHECKLIST: readonly string[] = [
  `Between ${PHOTO_RULES.recommendedMin} and ${PHOTO_RULES.recommendedMax} photos (no more than ${PHOTO_RULES.maxPhotos})`,
  'Every photo is a JPEG or PNG',
  'Sharp focus on your eyes in every photo',
  'A mix of angles, lighting, expressions and framing',
  'Only you in every photo, with no sunglasses or filters',
  'Photos from the last 12 months, in your everyday look',
];
