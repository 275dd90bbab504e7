// Matching a reported image with the images Humanly delivered (decision 059): the license id its
// metadata names, its exact pixels, and perceptual hashes that survive re-encoding, resizing and
// small crops; index keys so a report finds its candidates without reading every image.
export { CANDIDATE_BITS, compare, MATCH_THRESHOLD, perceptualDistance, type Comparison } from './compare';
export { fingerprintImage, NotAnImageError, type Fingerprint } from './fingerprint';
export { candidateKeys, indexKeys } from './keys';
export { licenseIdInMetadata } from './metadata';
export { HASH_BITS } from './perceptual-hash';
