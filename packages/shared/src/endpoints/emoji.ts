import { z } from 'zod';
import { defineEndpoint, teamIdParam } from '../endpoint.ts';
import { customEmojiResponse } from '../workspace.ts';

/* The workspace's custom emoji (apps/server/src/modules/emoji/module.ts), for the web's message text. */

export const getCustomEmoji = /* @__PURE__ */ defineEndpoint({
  method: 'GET',
  path: '/workspace/emoji/:teamId',
  scope: 'read',
  tags: ['workspaces'],
  summary:
    'The workspace’s custom emoji: name -> image URL (aliases resolved; cached, refreshed on emoji_changed)',
  params: z.object({ teamId: teamIdParam }),
  response: { 200: customEmojiResponse },
});
