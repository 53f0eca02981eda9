import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineEndpoint, isEndpoint, type Endpoint } from '@flywheel/shared/endpoint';
import { registeredRoutes, type RouteRecord } from '../app.ts';
import { buildTestApp, type TestApp } from '../testing/build-test-app.ts';
import { endpointRoutes } from './endpoint-route.ts';

const ENDPOINTS_DIR = fileURLToPath(new URL('../../../../packages/shared/src/endpoints/', import.meta.url));

/** Every contract the shared package declares, by `file.export`. */
async function allEndpoints(): Promise<Map<string, Endpoint>> {
  const found = new Map<string, Endpoint>();
  for (const file of fs
    .readdirSync(ENDPOINTS_DIR)
    .filter((f) => f.endsWith('.ts'))
    .sort()) {
    const mod = (await import(path.join(ENDPOINTS_DIR, file))) as Record<string, unknown>;
    for (const [name, value] of Object.entries(mod))
      if (isEndpoint(value)) found.set(`${file.replace(/\.ts$/, '')}.${name}`, value);
  }
  return found;
}

describe('endpoint contracts', () => {
  let t: TestApp;
  let v0: (RouteRecord & { endpoint?: Endpoint })[];
  let endpoints: Map<string, Endpoint>;
  beforeAll(async () => {
    t = await buildTestApp({}, { workers: false });
    const declared = new Map<string, Endpoint>();
    endpoints = await allEndpoints();
    for (const e of endpoints.values()) declared.set(`${e.method} /api/v0${e.path}`, e);
    v0 = (registeredRoutes.get(t.app) ?? [])
      .filter((r) => r.url.startsWith('/api/v0/'))
      .map((r) => ({ ...r, endpoint: declared.get(`${r.method} ${r.url}`) }));
  }, 180_000);
  afterAll(() => t?.close());

  it('every /api/v0 route comes from a contract (a new route starts from one)', () => {
    const left = v0.filter((r) => !r.fromContract).map((r) => `${r.method} ${r.url.replace('/api/v0', '')}`);
    expect(left.sort()).toEqual([]);
    // A module's contracts are all its routes: none of a converted module's paths is declared by hand.
    const converted = v0.filter((r) => r.fromContract);
    expect(converted.length).toBeGreaterThan(25);
    for (const r of converted) expect(r.endpoint, `${r.method} ${r.url}`).toBeDefined();
  });

  it('every contract is one route, with its method, path and access', () => {
    const byRoute = new Map(v0.map((r) => [`${r.method} ${r.url}`, r]));
    for (const [name, e] of endpoints) {
      const route = byRoute.get(`${e.method} /api/v0${e.path}`);
      expect(route, `${name}: ${e.method} ${e.path} is not registered`).toBeDefined();
      expect(route!.fromContract, name).toBe(true);
      if (e.scope === 'user' || e.scope === 'public') expect(route!.workspaceScoped, name).toBe(false);
      else
        expect({ scoped: route!.workspaceScoped, access: route!.access }, name).toEqual({
          scoped: true,
          access: e.scope,
        });
    }
    const paths = [...endpoints.values()].map((e) => `${e.method} ${e.path}`);
    expect(new Set(paths).size).toBe(paths.length);
  });
});

describe('endpointRoutes', () => {
  const ping = defineEndpoint({
    method: 'POST',
    path: '/ping/:teamId',
    scope: 'act',
    tags: ['test'],
    params: z.object({ teamId: z.string() }),
    body: z.object({ n: z.number() }),
    response: { 200: z.object({ n: z.number(), teamId: z.string() }) },
  });

  it('refuses a workspace-scoped contract without the workspace guard, and a user one without sign-in', () => {
    const app = Fastify();
    expect(() => endpointRoutes(app, {})(ping, async () => ({ n: 1, teamId: 'T' }))).toThrow(
      'POST /ping/:teamId: a workspace-scoped endpoint needs the workspace guard',
    );
    expect(() =>
      endpointRoutes(app, {})({ ...ping, scope: 'user' }, async () => ({ n: 1, teamId: 'T' })),
    ).toThrow("POST /ping/:teamId: a 'user' endpoint needs the sign-in hook");
  });
});

describe('endpointRoutes: an upload', () => {
  it("runs the route's own onRequest after the access check's, and gives the schema consumes and hide", async () => {
    const upload = defineEndpoint({
      method: 'POST',
      path: '/upload',
      scope: 'act',
      tags: ['test'],
      consumes: ['multipart/form-data'],
      hide: true,
    });
    const order: string[] = [];
    const app = Fastify();
    const schemas: unknown[] = [];
    app.addHook('onRoute', (r) => void schemas.push(r.schema));
    const guard = {
      onRequest: async () => void order.push('token'),
      preValidation: async () => void order.push('workspace'),
    };
    endpointRoutes(app, { guard })(upload, async (_req, reply) => reply.code(201).send('stored'), {
      onRequest: async () => void order.push('slot'),
    });
    const res = await app.inject({ method: 'POST', url: '/upload', payload: { team_id: 'T1' } });
    expect(res.statusCode).toBe(201);
    expect(order).toEqual(['token', 'slot', 'workspace']);
    expect(schemas[0]).toMatchObject({ tags: ['test'], consumes: ['multipart/form-data'], hide: true });
    await app.close();
  });
});
