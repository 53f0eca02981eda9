export { bucketsKey, useBuckets } from './buckets.ts';
