// The Drizzle schema: every module's tables, gathered for the typed client and drizzle-kit.
export * from '../modules/auth/table.ts';
export * from '../modules/mail/table.ts';
export * from '../modules/workspaces/table.ts';
export * from '../modules/intake/table.ts';
export * from '../modules/workspace-data/table.ts';
export * from '../modules/activity/table.ts';
export * from '../modules/tags/table.ts';
export * from '../modules/home/table.ts';
export * from '../modules/bot/table.ts';
export * from '../modules/delivery/table.ts';
export * from '../modules/actions/table.ts';
export * from '../modules/buckets/table.ts';
export * from '../modules/conversations/table.ts';
export * from '../modules/forms/table.ts';
export * from '../modules/polls/table.ts';
export * from '../modules/workflows/table.ts';
export * from '../jobs/table.ts';
