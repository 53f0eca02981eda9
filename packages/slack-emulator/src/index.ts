export { startEmulator, type Emulator, type EmulatorOptions, type WorkspaceOptions } from './emulator.ts';
export { signRequest, verifySignature, signedHeaders } from './signing.ts';
export {
  generateWorkspace,
  type Workspace,
  type WorkspaceSpec,
  type GenMember,
  type GenChannel,
} from './generator/workspace.ts';
export { generateDay } from './generator/history.ts';
export { ALL_BOT_SCOPES, DEFAULT_USER_SCOPES, type AppConfig, type Install, type TokenInfo } from './auth.ts';
export type { Truth, TruthMember, MembershipEvent, MessageFilter } from './state/truth.ts';
export type { SlackMessage, TruthMessage, Reaction, SlackFile } from './types.ts';
export type { RateLimitOptions } from './rate-limit.ts';
export type { FaultOptions, QueuedFault } from './faults.ts';
export type { LiveOptions } from './live.ts';
export type { Delivery, DeliveryAttempt, EventOptions } from './events/dispatcher.ts';
