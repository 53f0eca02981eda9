import fs from 'node:fs';
import path from 'node:path';
import Fastify, { type FastifyBaseLogger, type FastifyInstance } from 'fastify';
import fastifyStatic from '@fastify/static';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import { jsonSchemaTransform, serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import type { AppContext } from './context.ts';
import { healthRoutes } from './modules/health/routes.ts';
import { metricsRoutes } from './modules/metrics/routes.ts';
import { intakeRoutes } from './modules/intake/routes.ts';
import { devOutboxRoutes } from './modules/mail/routes.ts';
import { devClockRoutes } from './modules/activity/dev-clock.ts';
import { levelsJob } from './modules/activity/jobs.ts';
import { registerAuditLog } from './modules/audit/record.ts';
import { registerErrorHandling } from './plugins/errors.ts';
import { registerInputGuard } from './plugins/input-guard.ts';
import { inlineScriptsOf, registerSecurityHeaders } from './plugins/security-headers.ts';
import { accessOf, type RouteAccess } from './plugins/workspace-guard.ts';
import { API_KEY_PREFIX, API_KEY_RATE } from '@flywheel/shared/roles';

/** The OpenAPI document's introduction: how to call the API with a login token or an API key. */
const API_DESCRIPTION = `Every workspace-scoped route takes a login token (\`POST /api/v0/auth/login\`) or a workspace **API key**.

An Owner creates API keys in Settings → API keys (or \`POST /api/v0/apikeys/create\`); the key is shown once. A \`read\` key calls the routes that read (dashboards, lists, exports), an \`act\` key also those that act (sends, schedules, forms, polls, workflows, buckets, tags); no key manages the workspace (admins, roles, keys) or calls account routes (\`/api/v0/auth/*\`). A key works only for its own workspace (403 otherwise), acts on behalf of the Owner who created it and never above that person's role; an unknown or revoked key answers 401. Each key may make ${API_KEY_RATE.burst} requests at once, then ${API_KEY_RATE.perSecond} a second (429 with \`Retry-After\`).

Example:

\`\`\`
curl -H 'Authorization: Bearer ${API_KEY_PREFIX}3q2-7wQ...' https://flywheel.example.com/api/v0/workspaces/status/T0123ABCD
\`\`\``;

export type RouteRecord = {
  method: string;
  url: string;
  workspaceScoped: boolean;
  access: RouteAccess;
  /** Declared from an endpoint contract (plugins/endpoint-route.ts). */
  fromContract: boolean;
};
/** Every route an app registered (the tenancy test walks them). */
export const registeredRoutes = new WeakMap<FastifyInstance, RouteRecord[]>();

/**
 * The HTTP face of a process: plugins; health and the dev outbox under /api; every module's routes under
 * /api/v0, from the one module list; the Slack callbacks (intake) at /slack; then the SPA.
 */
export async function buildApp(ctx: AppContext): Promise<FastifyInstance> {
  const { config } = ctx;
  const app = Fastify({
    loggerInstance: ctx.logger as FastifyBaseLogger,
    trustProxy: config.trustProxy,
    bodyLimit: 1024 * 1024,
  });
  const routes: RouteRecord[] = [];
  registeredRoutes.set(app, routes);
  app.addHook('onRoute', (r) => {
    for (const method of [r.method].flat()) {
      if (method !== 'HEAD')
        routes.push({
          method,
          url: r.url,
          workspaceScoped: r.config?.workspaceScoped === true,
          access: accessOf(method, r.config),
          fromContract: r.config?.endpoint !== undefined,
        });
    }
  });
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  registerErrorHandling(app);
  registerInputGuard(app);
  const indexHtml = path.join(config.webDist, 'index.html');
  await registerSecurityHeaders(app, {
    publicUrl: config.publicUrl,
    inlineScripts: fs.existsSync(indexHtml) ? inlineScriptsOf(fs.readFileSync(indexHtml, 'utf8')) : [],
  });

  await app.register(swagger, {
    openapi: {
      info: { title: 'Flywheel API', version: '0', description: API_DESCRIPTION },
      components: {
        securitySchemes: {
          bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT', description: 'A login token.' },
          apiKey: {
            type: 'http',
            scheme: 'bearer',
            bearerFormat: `${API_KEY_PREFIX}...`,
            description: `A workspace API key, \`Authorization: Bearer ${API_KEY_PREFIX}...\` (see the API description).`,
          },
        },
      },
    },
    // Workspace-scoped routes say which credentials they take: a login token, or an API key unless they manage.
    transform: (input) => {
      const out = jsonSchemaTransform(input);
      const config = input.route?.config as { workspaceScoped?: boolean; access?: RouteAccess } | undefined;
      if (!config?.workspaceScoped) return out;
      const access = accessOf([input.route.method].flat()[0] ?? 'GET', config);
      const security: Record<string, string[]>[] =
        access === 'manage' ? [{ bearer: [] }] : [{ bearer: [] }, { apiKey: [] }];
      return { ...out, schema: { ...out.schema, security } };
    },
  });
  await app.register(swaggerUi, { routePrefix: '/api/docs' });

  await app.register(
    healthRoutes({
      database: ctx.database,
      queue: ctx.queue,
      role: config.role,
      dbTimeoutMs: config.healthDbTimeoutMs,
    }),
    {
      prefix: '/api',
    },
  );
  if (config.devOutbox) await app.register(devOutboxRoutes(ctx.database.db), { prefix: '/api' });
  if (ctx.devClock)
    await app.register(
      devClockRoutes(ctx.devClock, async () => void (await ctx.queue.send(levelsJob, {}))),
      { prefix: '/api' },
    );
  app.addHook('onResponse', async (req, reply) => {
    // The route's template (/api/v0/members/memberinfo/:a/:b), never the raw URL; unmatched URLs are one series.
    const route = req.routeOptions.url ?? 'unmatched';
    ctx.metrics.observeRequest(req.method, route, reply.statusCode, reply.elapsedTime / 1000);
  });
  registerAuditLog(app, ctx.services.audit);
  await app.register(metricsRoutes({ metrics: ctx.metrics, token: config.metricsToken }));
  await app.register(
    async (v0) => {
      // How long the server took over each call (standard Server-Timing; the browser's own timing of a call also
      // counts the time the request waited for a connection or for the page's busy main thread).
      v0.addHook('onSend', async (_req, reply, payload) => {
        reply.header('server-timing', `app;dur=${reply.elapsedTime.toFixed(1)}`);
        return payload;
      });
      for (const m of ctx.modules) if (m.routes) await m.routes(v0, ctx);
    },
    { prefix: '/api/v0' },
  );
  await app.register(intakeRoutes(ctx));

  await registerSpa(app, config.webDist);
  return app;
}

/** Serves the built web app with history fallback; API paths that match nothing get the JSON 404. */
async function registerSpa(app: FastifyInstance, webDist: string) {
  const index = path.join(webDist, 'index.html');
  const hasSpa = fs.existsSync(index);
  if (hasSpa) {
    await app.register(fastifyStatic, {
      root: webDist,
      wildcard: false,
      index: false,
      cacheControl: false,
      // The build writes brotli and gzip copies beside each file (apps/web/scripts/compress.mjs): the one the
      // browser accepts is sent, else the file itself.
      preCompressed: true,
      // The same URL answers in brotli, gzip or plain by the request's Accept-Encoding: @fastify/static adds
      // `Vary: accept-encoding` itself when pre-compressed copies are on.
      setHeaders: (reply, filePath) => {
        const hashed = filePath.includes(`${path.sep}assets${path.sep}`);
        reply.header('cache-control', hashed ? 'public, max-age=31536000, immutable' : 'no-cache');
      },
    });
  }
  app.setNotFoundHandler((req, reply) => {
    const url = req.url.split('?')[0]!;
    if (url.startsWith('/api/') || url.startsWith('/slack/') || !['GET', 'HEAD'].includes(req.method)) {
      return reply
        .code(404)
        .send({ statusCode: 404, code: 'NOT_FOUND', message: `No such route: ${req.method} ${url}` });
    }
    if (!hasSpa) {
      return reply
        .code(503)
        .type('text/plain')
        .send('The web app is not built yet: run `npm run build` (or `npm start`, which builds it).');
    }
    return reply.header('cache-control', 'no-cache').sendFile('index.html');
  });
}
