export { checkPhoto, type PhotoCheck } from './image';
export { REFUSAL } from './reasons';
export { sniff, type Sniffed } from './sniff';
export { memoryPhotoStorage, photoS3Client, s3PhotoStorage, type PhotoStorage } from './storage';
export { validateObjects, type ValidateObjectsDeps, type ValidationOutcome } from './validate';
export { readZip, type ZipItem, type ZipOutcome } from './zip';
