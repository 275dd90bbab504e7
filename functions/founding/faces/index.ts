// Face checks for founding applications (docs/identity.md): what the validation workflow, the
// selfie route and the console use. Thresholds and texts are in events/identity-values.ts.
export { loadFaceModel } from './model';
export { analyzePhoto, type PhotoAnalysis } from './analyze';
export { recentAnalyses } from './recent';
export { assessSet, matchSelfie, type SetAssessment, type SetPhoto } from './assess';
export { hammingDistance } from './measures';
export { descriptorSimilarity } from './model';
