import type { Json } from '../types.ts';

/** What team state needs from the running emulator. */
export type TeamContext = {
  baseUrl(): string;
  /** Clock in milliseconds (injectable for tests). */
  now(): number;
  /** Hands an inner event to the Events API dispatcher. `channel` limits delivery to apps in it. */
  emit(teamId: string, event: Json, scope?: { channel?: string }): void;
};

export const nowSeconds = (ctx: TeamContext): number => Math.floor(ctx.now() / 1000);
