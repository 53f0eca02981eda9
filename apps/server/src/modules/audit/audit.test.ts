import Fastify, { type FastifyInstance } from 'fastify';
import { serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { registeredRoutes, type RouteRecord } from '../../app.ts';
import type { Db } from '../../db/client.ts';
import { createLogger } from '../../lib/logger.ts';
import { bearer, signedInUser } from '../../testing/factories.ts';
import {
  installThroughOAuth,
  slackTestEnv,
  waitForBackfill,
  type SlackTestEnv,
} from '../../testing/slack.ts';
import { AUDIT_ACTIONS } from './actions.ts';
import { actorOf, objectsOf, previewOf, registerAuditLog } from './record.ts';
import { auditService, type AuditService } from './service.ts';
import { auditEvents } from './table.ts';

/* eslint-disable @typescript-eslint/no-explicit-any */

let env: SlackTestEnv;
let user: Awaited<ReturnType<typeof signedInUser>>;
let intruder: Awaited<ReturnType<typeof signedInUser>>;
let teamId: string;
let otherTeam: string;
let members: string[];
let channel: string;
let audit: AuditService;

beforeAll(async () => {
  env = await slackTestEnv({
    workspaces: [
      { seed: 21, members: 12, channels: 2, days: 1 },
      { seed: 22, members: 5, channels: 1, days: 1 },
    ],
  });
  [teamId, otherTeam] = env.emu.teamIds as [string, string];
  user = await signedInUser(env.t);
  intruder = await signedInUser(env.t);
  expect((await installThroughOAuth(env, user, { teamId })).statusCode).toBe(200);
  expect((await installThroughOAuth(env, intruder, { teamId: otherTeam })).statusCode).toBe(200);
  await waitForBackfill(env, user.token, teamId);
  members = [...env.emu.truth(teamId).members()]
    .filter((m: any) => !m.is_bot && !m.deleted && m.id !== 'USLACKBOT')
    .map((m: any) => m.id);
  channel = (env.emu.truth(teamId).channels() as any[]).find((c) => !c.is_private && !c.is_im).id;
  audit = env.t.ctx.services.audit;
}, 120_000);
afterAll(() => env?.close());

const db = () => env.t.ctx.database.db;
const rowsOf = async (team: string) => {
  await audit.flush();
  return db().select().from(auditEvents).where(eq(auditEvents.teamId, team)).orderBy(auditEvents.id);
};
const call = (method: string, url: string, payload?: object, token = user.token) =>
  env.t.app.inject({ method: method as any, url: `/api/v0${url}`, payload, headers: bearer(token) });

/** Every route that acts on or manages a workspace (plugins/workspace-guard.ts `accessOf`). */
const actingRoutes = (app: FastifyInstance): RouteRecord[] =>
  (registeredRoutes.get(app) ?? []).filter((r) => r.workspaceScoped && r.access !== 'read');

describe('audit log: which routes record', () => {
  it('every acting route has an action kind, and every kind names an acting route', () => {
    const acting = actingRoutes(env.t.app).map((r) => `${r.method} ${r.url}`);
    expect(acting.length).toBeGreaterThanOrEqual(30);
    expect(acting.filter((r) => !AUDIT_ACTIONS[r])).toEqual([]);
    expect(Object.keys(AUDIT_ACTIONS).filter((r) => !acting.includes(r))).toEqual([]);
    const kinds = Object.values(AUDIT_ACTIONS).map((a) => a.kind);
    expect(new Set(kinds).size).toBe(kinds.length);
    for (const kind of kinds) expect(kind).toMatch(/^[a-z]+\.[a-z_]+$/);
  });

  it('the hook writes exactly one row per successful call of every acting route, and none on failure', async () => {
    // Every acting route of the real app, re-declared with its method, path and access over a handler that
    // answers as told: the hook sees what it sees on the real route (its config, params, body, answer).
    const routes = actingRoutes(env.t.app);
    const stub = Fastify();
    stub.setValidatorCompiler(validatorCompiler);
    stub.setSerializerCompiler(serializerCompiler);
    registerAuditLog(stub, audit);
    stub.addHook('onRequest', async (req) => {
      req.user = { id: user.userid, email: user.email, jti: 'j', exp: 0 };
    });
    for (const r of routes)
      stub.route({
        method: r.method as any,
        url: r.url,
        config: { workspaceScoped: true, access: r.access },
        handler: async (req, reply) => {
          const status = Number((req.headers['x-status'] as string | undefined) ?? 200);
          return reply
            .code(status)
            .send(status < 300 ? { data: { id: 7 }, message: 'ok' } : { message: 'no' });
        },
      });
    await stub.ready();
    const team = 'TSTUBAUDIT';
    const inject = (r: RouteRecord, status: number) => {
      const url = r.url.replace(/:teamId/g, team).replace(/:[A-Za-z_]+/g, '12');
      return stub.inject({
        method: r.method as any,
        url,
        headers: { 'x-status': String(status) },
        payload: r.method === 'DELETE' ? undefined : { team_id: team, users: [{ id: 'U1' }, { id: 'U2' }] },
      });
    };
    try {
      for (const r of routes) {
        const before = (await rowsOf(team)).length;
        for (const status of [400, 403, 404, 409, 500])
          expect((await inject(r, status)).statusCode).toBe(status);
        expect((await rowsOf(team)).length, `${r.method} ${r.url} failed`).toBe(before);
        expect([200, 201, 202]).toContain((await inject(r, 200)).statusCode);
        const rows = await rowsOf(team);
        expect(rows.length, `${r.method} ${r.url}`).toBe(before + 1);
        expect(rows.at(-1)).toMatchObject({
          action: AUDIT_ACTIONS[`${r.method} ${r.url}`]!.kind,
          method: r.method,
          route: r.url,
          status: 200,
          actorKind: 'user',
          actorUserId: user.userid,
          actorEmail: user.email,
        });
        expect(rows.at(-1)!.objects.result_id).toBe(7);
      }
    } finally {
      await stub.close();
    }
  });
});

describe('audit log: real calls', () => {
  it('a sent message records who, what, the receipt and a short preview; failures record nothing', async () => {
    const before = (await rowsOf(teamId)).length;
    const long = `Hello everyone ${'and welcome '.repeat(20)}`;
    const sent = await call('POST', '/quickaction/sendmessage', {
      team_id: teamId,
      sender: 'bot',
      message: long,
      channel_ids: [channel],
    });
    expect(sent.statusCode).toBe(202);
    const receipt = sent.json().data.receipt_id;
    // A 400 (validation), a 403 (another admin's workspace) and a 404 write nothing.
    expect(
      (await call('POST', '/quickaction/sendmessage', { team_id: teamId, sender: 'bot' })).statusCode,
    ).toBe(400);
    expect(
      (await call('POST', '/tags/createtag', { team_id: teamId, name: 'x' }, intruder.token)).statusCode,
    ).toBe(403);
    expect((await call('DELETE', `/tags/removetagfromuser/${teamId}/${members[0]}/999999`)).statusCode).toBe(
      404,
    );
    const rows = (await rowsOf(teamId)).slice(before);
    expect(rows).toHaveLength(1);
    const [row] = rows;
    expect(row).toMatchObject({
      action: 'send.message',
      method: 'POST',
      route: '/api/v0/quickaction/sendmessage',
      status: 202,
      actorKind: 'user',
      actorUserId: user.userid,
      actorEmail: user.email,
      objects: { receipt_id: receipt, channel_ids_count: 1 },
    });
    expect(row!.summary).toContain('Sent a message');
    expect(row!.summary).toContain('Hello everyone and welcome');
    expect(row!.summary.length).toBeLessThan(long.length);
    expect((await rowsOf(otherTeam)).filter((r) => r.action !== 'auth.login')).toEqual([]);
  });

  it('tags: create, add to members and remove each record one row with their objects', async () => {
    const before = (await rowsOf(teamId)).length;
    const made = await call('POST', '/tags/createtag', { team_id: teamId, name: `Audit ${Date.now()}` });
    expect(made.statusCode).toBe(201);
    const tagId = made.json().data.id;
    const add = await call('POST', '/tags/addtagtousers', {
      team_id: teamId,
      tags: [{ id: tagId, name: 'x' }],
      users: members.slice(0, 3).map((id) => ({ id })),
    });
    expect(add.statusCode).toBe(200);
    expect(
      (await call('DELETE', `/tags/removetagfromuser/${teamId}/${members[0]}/${tagId}`)).statusCode,
    ).toBe(200);
    const rows = (await rowsOf(teamId)).slice(before);
    expect(rows.map((r) => r.action)).toEqual(['tag.create', 'tag.add', 'tag.remove']);
    expect(rows[0]!.objects).toMatchObject({ result_id: tagId });
    expect(rows[1]!.objects).toMatchObject({ users_count: 3, tags_count: 1 });
    expect(rows[2]!.objects).toMatchObject({ member_id: members[0], tag_id: tagId });
  });

  it('a login records auth.login for each workspace the person administers; a failed login nothing', async () => {
    const before = (await rowsOf(teamId)).length;
    const bad = await env.t.app.inject({
      method: 'POST',
      url: '/api/v0/auth/login',
      payload: { email: user.email, password: 'wrong password here' },
    });
    expect(bad.statusCode).toBe(401);
    expect((await rowsOf(teamId)).length).toBe(before);
    const good = await env.t.app.inject({
      method: 'POST',
      url: '/api/v0/auth/login',
      payload: { email: user.email, password: user.password },
    });
    expect(good.statusCode).toBe(200);
    const rows = (await rowsOf(teamId)).slice(before);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ action: 'auth.login', actorUserId: user.userid, actorEmail: user.email });
    expect(JSON.stringify(rows[0])).not.toContain(good.json().token);
    expect((await rowsOf(otherTeam)).filter((r) => r.actorUserId === user.userid)).toEqual([]);
  });

  it('objects keep ids and counts, never secrets; the preview is short and never half an emoji', () => {
    const req = {
      params: { teamId: 'T1', pollId: 5 },
      body: {
        team_id: 'T1',
        workflow_id: 9,
        access_token: 'xoxp-secret',
        password_id: 'x',
        users: [{ id: 'U1' }, { id: 'U2' }],
        message: 'secret body '.repeat(3),
      },
    } as any;
    const objects = objectsOf(req, JSON.stringify({ data: { receipt_id: 12, token: 'xoxb-1' } }));
    expect(objects).toEqual({ poll_id: 5, workflow_id: 9, users_count: 2, receipt_id: 12 });
    const preview = previewOf({ message: `${'a'.repeat(58)}🎉 and the rest of a long message` })!;
    expect(preview.length).toBeLessThanOrEqual(60);
    expect(preview).toMatch(/^a{58}…$/);
    expect(previewOf({ text: '  two\n\nlines  ' })).toBe('two lines');
    expect(previewOf({ blocks: [] })).toBeUndefined();
  });

  it('a workflow stopped or activated says which', () => {
    const pause = AUDIT_ACTIONS['PATCH /api/v0/workflows/pauseworkflow']!;
    expect(pause.labelOf?.({ status: false })).toBe('Stopped a workflow');
    expect(pause.labelOf?.({ status: true })).toBe('Activated a workflow');
    expect(pause.labelOf?.({}) ?? pause.label).toBe('Activated or stopped a workflow');
  });

  it('an API key call is recorded as the key, with its creator', async () => {
    const req = { user: { id: 'u1', email: 'a@example.com' }, apiKey: { id: 'k1', name: 'Zapier' } } as any;
    expect(actorOf(req)).toEqual({ kind: 'api_key', userId: 'u1', email: 'a@example.com', label: 'Zapier' });
    expect(actorOf({ user: { id: 'u1', email: 'a@example.com' } } as any).kind).toBe('user');
  });
});

describe('audit log: reading it', () => {
  it('lists newest first with filters and paging; refuses another admin (403)', async () => {
    const list = (q = '', token = user.token) => call('GET', `/audit/${teamId}/events${q}`, undefined, token);
    const all = await list();
    expect(all.statusCode).toBe(200);
    const body = all.json();
    expect(body.total).toBeGreaterThanOrEqual(5);
    expect(body.kinds).toEqual(expect.arrayContaining(['auth.login', 'send.message', 'tag.add']));
    expect(body.people).toContainEqual({ user_id: user.userid, email: user.email });
    const times = body.data.map((e: any) => e.at);
    expect([...times].sort().reverse()).toEqual(times);

    const tagAdds = (await list('?kind=tag.add')).json();
    expect(tagAdds.data.length).toBeGreaterThan(0);
    expect(tagAdds.data.every((e: any) => e.action === 'tag.add')).toBe(true);
    expect((await list(`?actor=${intruder.userid}`)).json().total).toBe(0);
    expect((await list(`?actor=${user.userid}`)).json().total).toBe(body.total);
    expect((await list('?from=2001-01-01&to=2001-01-02')).json().total).toBe(0);
    const today = new Date().toISOString().slice(0, 10);
    expect((await list(`?from=${today}&to=${today}`)).json().total).toBe(body.total);

    const p1 = (await list('?page=1&page_size=2')).json();
    const p2 = (await list('?page=2&page_size=2')).json();
    expect(p1.data).toHaveLength(2);
    expect(p2.data[0].id).not.toBe(p1.data[0].id);
    expect(p1.data.map((e: any) => e.id)).toEqual(body.data.slice(0, 2).map((e: any) => e.id));

    const bad = await list('?from=2024-02-30');
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toMatch(/from/);
    expect((await list('', intruder.token)).statusCode).toBe(403);
    expect((await call('GET', `/audit/${teamId}/events.csv`, undefined, intruder.token)).statusCode).toBe(
      403,
    );
    // Reading the log is not itself recorded.
    expect((await list()).json().total).toBe(body.total);
  });

  it('the CSV has every filtered row, with formula-safe cells', async () => {
    audit.record([
      {
        teamId,
        actor: { kind: 'api_key', userId: user.userid, email: user.email, label: '@SUM(A1)' },
        action: 'tag.create',
        method: 'POST',
        route: '/api/v0/tags/createtag',
        objects: { result_id: 1 },
        status: 201,
        summary: '=HYPERLINK("http://evil.example","click")',
      },
    ]);
    await audit.flush();
    const res = await call('GET', `/audit/${teamId}/events.csv?kind=tag.create`);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('text/csv');
    const lines = res.body
      .replace(/^\uFEFF/, '')
      .trim()
      .split('\r\n');
    expect(lines[0]).toBe(
      '"Time (UTC)","Actor","Actor kind","API key","Action","Method","Route","Objects","Status","Summary"',
    );
    const total = (await call('GET', `/audit/${teamId}/events?kind=tag.create`)).json().total;
    expect(lines).toHaveLength(total + 1);
    expect(res.body).toContain(`"'=HYPERLINK(""http://evil.example"",""click"")"`);
    expect(res.body).toContain(`"'@SUM(A1)"`);
    expect(res.body).not.toMatch(/(^|,)"[=+\-@]/m);
  });
});

describe('audit log: retention and failures', () => {
  it('the retention deletes rows older than AUDIT_RETENTION_DAYS only', async () => {
    const team = 'TRETENTION';
    const day = 86_400_000;
    const now = Date.now();
    const base = {
      teamId: team,
      actorKind: 'user' as const,
      action: 'tag.create',
      method: 'POST',
      route: '/api/v0/tags/createtag',
      status: 201,
      summary: 'Created a tag',
    };
    await db()
      .insert(auditEvents)
      .values([
        { ...base, at: new Date(now - 400 * day), summary: 'old' },
        { ...base, at: new Date(now - 366 * day), summary: 'just too old' },
        { ...base, at: new Date(now - 364 * day), summary: 'kept' },
        { ...base, at: new Date(now - day), summary: 'recent' },
      ]);
    expect(env.t.ctx.config.auditRetentionDays).toBe(365);
    const gone = await audit.purgeExpired(new Date(now));
    expect(gone).toBeGreaterThanOrEqual(2);
    expect((await rowsOf(team)).map((r) => r.summary)).toEqual(['kept', 'recent']);
    // Other workspaces' recent rows stay.
    expect((await rowsOf(teamId)).length).toBeGreaterThan(0);
  });

  it('the table is append-only: the database refuses an update', async () => {
    await expect(
      db().update(auditEvents).set({ summary: 'rewritten' }).where(eq(auditEvents.teamId, teamId)),
    ).rejects.toThrow();
    expect((await rowsOf(teamId)).filter((r) => r.summary === 'rewritten')).toEqual([]);
  });

  it('a failed write is logged without its content and never reaches the caller', async () => {
    const logged: any[] = [];
    const logger = createLogger('silent');
    const spy = Object.assign(Object.create(logger), {
      child: () => ({ warn: (o: any, m: string) => logged.push([o, m]), info: () => {} }),
    });
    const broken = {
      insert: () => ({ values: () => Promise.reject(new Error('relation "audit_events" does not exist')) }),
    } as unknown as Db;
    const failing = auditService({ db: broken, logger: spy, retentionDays: 365 });
    expect(() =>
      failing.record([
        {
          teamId,
          actor: { kind: 'user', userId: 'u', email: 'secret-person@example.com', label: null },
          action: 'send.message',
          method: 'POST',
          route: '/api/v0/quickaction/sendmessage',
          objects: {},
          status: 202,
          summary: 'Sent a message · “private words”',
        },
      ]),
    ).not.toThrow();
    await failing.flush();
    expect(logged).toHaveLength(1);
    expect(logged[0][1]).toMatch(/audit log write failed/);
    expect(JSON.stringify(logged)).not.toMatch(/private words|secret-person/);
  });
});
