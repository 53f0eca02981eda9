import { useMutation, useQueryClient } from '@tanstack/react-query';
import { BOT_UPLOAD_SUCCESS, type BotDetails } from '@flywheel/shared/analytics';
import { uploadBotInfo } from '@flywheel/shared/endpoints/bot';
import { callEndpoint } from '../../../lib/endpoint-client.ts';
import { notifySuccess } from '../../../lib/notify.tsx';
import { useCurrentTeam } from '../../../entities/workspace/index.ts';
import { botQuery } from './bot-details.ts';

export const BOT_UPLOADED = BOT_UPLOAD_SUCCESS;

/** POST /alterbot/uploadinfo {botName, team_id, use_custom}. */
export const uploadBot = (teamId: string, v: { botName: string; use_custom: boolean }) =>
  callEndpoint(uploadBotInfo, { body: { ...v, team_id: teamId } });

/**
 * Saves the bot; the card shows the server's answer at once (its image address too: the Flywheel image on the
 * page's own origin, or the workspace icon) and the bot query reloads.
 */
export function useUploadBot() {
  const { teamId } = useCurrentTeam();
  const qc = useQueryClient();
  const key = botQuery(teamId).queryKey;
  return useMutation({
    mutationFn: (v: { botName: string; use_custom: boolean }) => uploadBot(teamId, v),
    onSuccess: (r) => {
      notifySuccess(BOT_UPLOADED);
      qc.setQueryData<BotDetails>(key, r.data);
      void qc.invalidateQueries({ queryKey: key });
    },
  });
}
