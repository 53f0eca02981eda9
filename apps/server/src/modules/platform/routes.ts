import type { FastifyInstance } from 'fastify';
import type { PublicConfig } from '@flywheel/shared/auth';
import { getPublicConfig } from '@flywheel/shared/endpoints/platform';
import { endpointRoutes } from '../../plugins/endpoint-route.ts';

export type { PublicConfig };

/** GET /api/v0/public/config: what the signed-out pages may know (demo credentials in demo mode). */
export function platformRoutes(publicConfig: () => PublicConfig) {
  return async (app: FastifyInstance) => {
    endpointRoutes(app, {})(getPublicConfig, async () => publicConfig());
  };
}
