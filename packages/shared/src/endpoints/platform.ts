import { publicConfigResponse } from '../auth.ts';
import { defineEndpoint } from '../endpoint.ts';

/* The process itself (apps/server/src/modules/platform/routes.ts): what the signed-out pages may know. */

export const getPublicConfig = /* @__PURE__ */ defineEndpoint({
  method: 'GET',
  path: '/public/config',
  scope: 'public',
  tags: ['platform'],
  response: { 200: publicConfigResponse },
});
