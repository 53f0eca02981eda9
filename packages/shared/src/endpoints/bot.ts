import { botDetailsResponse, botUploadBody } from '../analytics.ts';
import { defineEndpoint, teamParams } from '../endpoint.ts';

/* Customise Bot (apps/server/src/modules/bot/routes.ts): changing the bot's profile manages the workspace. */

const tags = ['bot'] as const;

export const uploadBotInfo = /* @__PURE__ */ defineEndpoint({
  method: 'POST',
  path: '/alterbot/uploadinfo',
  scope: 'manage',
  tags,
  summary: "Saves the bot's name and image choice",
  body: botUploadBody,
  response: { 200: botDetailsResponse },
});

export const getBotDetails = /* @__PURE__ */ defineEndpoint({
  method: 'GET',
  path: '/alterbot/getbotdetails/:teamId',
  scope: 'read',
  tags,
  summary: "The bot's name, image URL and image choice",
  params: teamParams,
  response: { 200: botDetailsResponse },
});

/** Public and left out of the API document: Slack fetches it as the bot's icon_url. */
export const flywheelBotImage = /* @__PURE__ */ defineEndpoint({
  method: 'GET',
  path: '/public/flywheel-bot.png',
  scope: 'public',
  tags,
  summary: "The Flywheel bot's image (png)",
  produces: ['image/png'],
  hide: true,
});
