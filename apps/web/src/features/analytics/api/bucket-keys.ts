import { analyticsKey } from './keys.ts';

/** Every bucket query key starts here (the list, and each bucket's result rows). */
export const bucketsKey = (teamId: string) => [...analyticsKey(teamId), 'buckets'] as const;
