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
