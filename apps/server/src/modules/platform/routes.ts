import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { publicConfigResponse, type PublicConfig } from '@flywheel/shared/auth';

export type { PublicConfig };

/** GET /api/v0/public/config: what the signed-out pages may know (demo credentials in demo mode). */
export function platformRoutes(publicConfig: () => PublicConfig) {
  return async (app: FastifyInstance) => {
    app
      .withTypeProvider<ZodTypeProvider>()
      .get(
        '/public/config',
        { schema: { tags: ['platform'], response: { 200: publicConfigResponse } } },
        async () => publicConfig(),
      );
  };
}
