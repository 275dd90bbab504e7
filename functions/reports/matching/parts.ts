// The parts of an image hashed beside the whole (decision 059): a reported copy cropped by a
// tenth is close to the part of the delivered image it kept.
import type { Part } from './perceptual-hash';

/** Where the parts start, as fractions of the side: a fortieth apart, so a crop is never far from one. */
const PART_OFFSETS = [0, 0.025, 0.05, 0.075, 0.1];

/**
 * The parts of an image hashed beside the whole (fractions of its width and height): the 25
 * nine-tenths squares (a tenth of each side cut, anywhere from one edge to the other on a grid of
 * a fortieth) and the 10 nine-tenths strips (a tenth of the width, or of the height, cut).
 */
export const PARTS: readonly Part[] = [
  ...PART_OFFSETS.flatMap((top) => PART_OFFSETS.map((left) => ({ left, top, width: 0.9, height: 0.9 }))),
  ...PART_OFFSETS.map((left) => ({ left, top: 0, width: 0.9, height: 1 })),
  ...PART_OFFSETS.map((top) => ({ left: 0, top, width: 1, height: 0.9 })),
];
