/*
 * The workspace's buckets (segments): Analytics lists and edits them, a workflow's time trigger targets them.
 * Public surface of entities/buckets: import it from here, never its files (eslint.config.js).
 */
export { bucketsKey, useBuckets } from './buckets.ts';
