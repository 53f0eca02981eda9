import { DEFAULT_BOT_NAME, type BotDetails } from '@flywheel/shared/analytics';
import { flywheelBotImage } from '@flywheel/shared/endpoints/bot';
import type { Logger } from '../../lib/logger.ts';
import type { Db } from '../../db/client.ts';
import type { SlackApi } from '../../slack/client.ts';
import type { WorkspacesService } from '../workspaces/service.ts';
import { botRepo } from './repo.ts';

export type BotService = ReturnType<typeof botService>;

/** Where the server serves the Flywheel bot image (public: Slack fetches it; its contract's path). */
export const FLYWHEEL_IMAGE_PATH = `/api/v0${flywheelBotImage.path}`;
const DEFAULTS = { botName: DEFAULT_BOT_NAME, useCustom: true };

/**
 * The bot identity per workspace: its name and image (the Flywheel image served here when use_custom, else the
 * workspace icon from team.info). Every bot message uses `botIdentity` with chat:write.customize.
 */
export const botService = (deps: {
  db: Db;
  workspaces: WorkspacesService;
  slack: SlackApi;
  publicUrl: string;
  logger: Logger;
}) => {
  const repo = botRepo(deps.db);
  const flywheelImage = `${deps.publicUrl}${FLYWHEEL_IMAGE_PATH}`;

  /** The workspace icon: remembered, else read once from team.info (null when Slack cannot tell). */
  async function workspaceIcon(teamId: string, known: string | null | undefined): Promise<string | null> {
    if (known) return known;
    try {
      const token = await deps.workspaces.botToken(teamId);
      await deps.slack.pace(teamId, 'team.info');
      const res = (await deps.slack.client(token).team.info({})) as {
        team?: { icon?: Record<string, unknown> };
      };
      const icon = res.team?.icon ?? {};
      const url = ['image_132', 'image_230', 'image_102', 'image_88', 'image_68']
        .map((k) => icon[k])
        .find((v): v is string => typeof v === 'string' && v.length > 0 && icon.image_default !== true);
      if (url) await repo.saveIcon(teamId, url, DEFAULTS);
      return url ?? null;
    } catch (err) {
      deps.logger.warn({ err, teamId }, 'could not read the workspace icon from team.info');
      return null;
    }
  }

  /**
   * The bot's settings. `origin`: where the browser asking is (the Flywheel image is served there, so the page on
   * 127.0.0.1 shows it; Slack gets the public URL).
   */
  async function details(teamId: string, origin?: string): Promise<BotDetails> {
    const row = await repo.find(teamId);
    const useCustom = row?.use_custom ?? DEFAULTS.useCustom;
    return {
      bot_name: row?.bot_name ?? DEFAULTS.botName,
      use_custom: useCustom,
      bot_image: useCustom
        ? origin
          ? `${origin}${FLYWHEEL_IMAGE_PATH}`
          : flywheelImage
        : await workspaceIcon(teamId, row?.workspace_icon),
    };
  }

  return {
    details,
    async upload(teamId: string, botName: string, useCustom: boolean, origin?: string): Promise<BotDetails> {
      await repo.save(teamId, botName, useCustom);
      return details(teamId, origin);
    },
    /** What chat.postMessage gets for this workspace's bot (username and icon_url; chat:write.customize). */
    async botIdentity(teamId: string): Promise<{ username: string; icon_url: string }> {
      const d = await details(teamId);
      return { username: d.bot_name, icon_url: d.bot_image ?? flywheelImage };
    },
  };
};
