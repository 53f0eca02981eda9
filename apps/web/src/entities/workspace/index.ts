/*
 * The current workspace: its team (every workspace query's key starts with ['workspace', teamId]), channels,
 * authorized admins and connection status, its custom emoji and its bot's name and image.
 * Public surface of entities/workspace: import it from here, never its files (eslint.config.js).
 */
export { useBotIdentity } from './bot-identity.ts';
export { CustomEmojiProvider, useCustomEmoji } from './custom-emoji.tsx';
export {
  authorizedAdminsQuery,
  channelsQuery,
  STATUS_POLL_MS,
  statusPollInterval,
  useAuthorizedAdmins,
  useChannels,
  useCurrentTeam,
  useInvalidateWorkspace,
  useTeamScope,
  useWorkspaceStatus,
  workspaceKey,
  workspaceStatusQuery,
} from './workspace-data.ts';
