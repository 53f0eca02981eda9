import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, signedInUser } from '../testing/factories.ts';
import { installThroughOAuth, slackTestEnv, type SlackTestEnv } from '../testing/slack.ts';

/* eslint-disable @typescript-eslint/no-explicit-any */

/*
 * Issue 18 "must show": a property-based fuzz test over every route of the OpenAPI document (/api/docs/json).
 * Each request is built from the route's own schema (path, query, JSON body), mixed with hostile values (NUL
 * bytes, huge numbers, impossible dates, wrong types, long strings), sent as a signed-in admin of a real
 * workspace: no answer may be a 5xx, and the server must still be healthy afterwards. Bounded: RUNS per route.
 */
const RUNS = Number(process.env.FUZZ_RUNS ?? 12);
const SEED = Number(process.env.FUZZ_SEED ?? 18);

type Schema = Record<string, any>;
let env: SlackTestEnv;
let admin: { token: string; userid: string; email: string };
let teamId: string;
let memberId: string;
let doc: { paths: Record<string, Record<string, any>> };

beforeAll(async () => {
  env = await slackTestEnv({ workspaces: [{ seed: 21, members: 12, channels: 3, days: 3 }] });
  teamId = env.emu.teamIds[0]!;
  admin = await signedInUser(env.t);
  expect((await installThroughOAuth(env, admin, { teamId })).statusCode).toBe(200);
  memberId = [...env.emu.truth(teamId).members()][0]!.id;
  doc = (await env.t.app.inject({ method: 'GET', url: '/api/docs/json' })).json();
}, 60_000);
afterAll(() => env.close());

const hostileString = fc.constantFrom(
  '',
  '\u0000',
  'T\u0000x',
  '\u0007bell',
  '\ud800',
  "'; drop table users; --",
  '%00',
  '../../etc/passwd',
  'x'.repeat(5000),
  '0001-01-01',
  '9999-12-31',
  '2024-02-30',
  '2024-13-01',
  '💥',
  '<script>alert(1)</script>',
);
const hostileNumber = fc.constantFrom(0, -1, 1e308, -1e308, 2 ** 31, 2 ** 53, 0.5, Number.MAX_SAFE_INTEGER);
const anyJson = fc.oneof(
  fc.constant(null),
  fc.boolean(),
  hostileNumber,
  hostileString,
  fc.constant([]),
  fc.constant({}),
  fc.constant([['nested']]),
);

/** A value for a JSON schema: usually a plausible one, sometimes a hostile one. */
function arb(schema: Schema | undefined, name = ''): fc.Arbitrary<unknown> {
  if (!schema) return anyJson;
  const options = schema.anyOf ?? schema.oneOf;
  if (options) return fc.oneof(...options.map((s: Schema) => arb(s, name)));
  const plausible = plausibleArb(schema, name);
  return fc.oneof({ weight: 4, arbitrary: plausible }, { weight: 1, arbitrary: anyJson });
}

function plausibleArb(schema: Schema, name: string): fc.Arbitrary<unknown> {
  if (schema.enum) return fc.constantFrom(...schema.enum);
  if (/^team_?id$/i.test(name)) return fc.oneof(fc.constant(teamId), fc.constant(teamId), hostileString);
  if (/^member_?id$|^user_?id$|^users$/i.test(name)) return fc.oneof(fc.constant(memberId), hostileString);
  switch (schema.type) {
    case 'string':
      if (/date/.test(name))
        return fc.oneof(
          fc
            .date({ min: new Date('1990-01-01'), max: new Date('2035-01-01'), noInvalidDate: true })
            .map((d) => d.toISOString().slice(0, 10)),
          hostileString,
        );
      if (/email/.test(name)) return fc.oneof(fc.emailAddress(), hostileString);
      return fc.oneof(fc.string({ maxLength: 40 }), hostileString);
    case 'integer':
      return fc.oneof(fc.integer({ min: -5, max: 400 }), hostileNumber);
    case 'number':
      return fc.oneof(fc.double({ noNaN: true }), hostileNumber);
    case 'boolean':
      return fc.boolean();
    case 'array':
      return fc.array(arb(schema.items, name), { maxLength: 5 });
    case 'object': {
      const props = Object.entries((schema.properties ?? {}) as Record<string, Schema>);
      return fc.record(Object.fromEntries(props.map(([k, s]) => [k, arb(s, k)])), { requiredKeys: [] });
    }
    default:
      return anyJson;
  }
}

/** Percent-encodes every UTF-8 byte (a lone surrogate becomes U+FFFD, as a browser would send it). */
const pathSegment = (text: string) =>
  [...Buffer.from(text, 'utf8')].map((b) => `%${b.toString(16).padStart(2, '0')}`).join('');

type Operation = { method: string; path: string; op: any };
const operations = (): Operation[] =>
  Object.entries(doc.paths).flatMap(([path, ops]) =>
    Object.entries(ops).map(([method, op]) => ({ method: method.toUpperCase(), path, op })),
  );

function requestArb({ method, path, op }: Operation) {
  const params = (op.parameters ?? []) as { in: string; name: string; schema: Schema }[];
  const values = fc.record(
    Object.fromEntries(params.map((p) => [`${p.in}:${p.name}`, arb(p.schema, p.name)])),
    {
      requiredKeys: params.filter((p) => p.in === 'path').map((p) => `${p.in}:${p.name}`),
    },
  );
  const bodySchema = op.requestBody?.content?.['application/json']?.schema as Schema | undefined;
  const body = op.requestBody ? arb(bodySchema) : fc.constant(undefined);
  return fc.record({ values, body }).map(({ values, body }) => {
    let url = path;
    const query = new URLSearchParams();
    for (const [key, v] of Object.entries(values)) {
      const [where, name] = key.split(':') as [string, string];
      const text = typeof v === 'string' ? v : JSON.stringify(v);
      if (where === 'path') url = url.replace(`{${name}}`, pathSegment(text || 'x'));
      else if (v !== undefined) query.set(name, text);
    }
    const qs = query.toString();
    return { method, url: qs ? `${url}?${qs}` : url, body };
  });
}

describe('fuzzing every route of the OpenAPI document', () => {
  it('answers every generated request without a 5xx, and stays healthy', async () => {
    const ops = operations().filter((o) => !/^\/api\/docs/.test(o.path));
    expect(ops.length).toBeGreaterThanOrEqual(45);
    const failures: string[] = [];
    let requests = 0;
    for (const o of ops) {
      await fc
        .assert(
          fc.asyncProperty(requestArb(o), async (req) => {
            requests++;
            // Logging out would end the session the other requests use.
            const headers = o.path.endsWith('/auth/logout') ? {} : bearer(admin.token);
            const res = await env.t.app
              .inject({
                method: req.method as any,
                url: req.url,
                headers: { ...headers, 'content-type': 'application/json' },
                payload: req.body === undefined ? undefined : JSON.stringify(req.body),
              })
              .catch((err: Error) => ({ statusCode: 599, body: `thrown: ${err.message}` }));
            if (res.statusCode >= 500) {
              failures.push(
                `${req.method} ${req.url.slice(0, 200)} ${JSON.stringify(req.body)?.slice(0, 300)} -> ${res.statusCode} ${res.body.slice(0, 200)}`,
              );
              return false;
            }
            return true;
          }),
          { numRuns: RUNS, seed: SEED, endOnFailure: true },
        )
        .catch((err: Error) => {
          if (!failures.length) failures.push(`${o.method} ${o.path}: ${err.message.slice(0, 500)}`);
        });
    }
    expect(failures).toEqual([]);
    expect(requests).toBeGreaterThanOrEqual(ops.length * RUNS * 0.9);
    expect((await env.t.app.inject({ method: 'GET', url: '/api/health' })).statusCode).toBe(200);
  }, 120_000);
});
