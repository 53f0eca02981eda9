import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { isEndpoint, staticPathOf, type Endpoint } from '@flywheel/shared/endpoint';
import { getMemberLevels } from '@flywheel/shared/endpoints/members-list';
import { markAllNotificationsRead } from '@flywheel/shared/endpoints/notifications';
import { removeTagFromMember } from '@flywheel/shared/endpoints/tags';
import { mockApi } from '../testing/mock-api.ts';
import { seedSession } from '../testing/session-fixtures.ts';
import { clearSession } from './session.ts';
import { callEndpoint } from './endpoint-client.ts';
import { ApiError } from './api-client.ts';

// __dirname, as the other tests that read files: under jsdom import.meta.url is not a file URL.
const SRC = path.join(__dirname, '..');
const ENDPOINTS_DIR = path.join(__dirname, '../../../../packages/shared/src/endpoints/');

/** Every contract the shared package declares. */
async function allEndpoints(): Promise<Endpoint[]> {
  const found: Endpoint[] = [];
  for (const file of fs.readdirSync(ENDPOINTS_DIR).filter((f) => f.endsWith('.ts'))) {
    const mod = (await import(/* @vite-ignore */ path.join(ENDPOINTS_DIR, file))) as Record<string, unknown>;
    found.push(...Object.values(mod).filter(isEndpoint));
  }
  return found;
}

/** The web app's source files, tests and test helpers aside. */
function sourceFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((d) => {
    const p = path.join(dir, d.name);
    if (d.isDirectory()) return d.name === 'testing' ? [] : sourceFiles(p);
    return /\.tsx?$/.test(d.name) && !/\.test\.tsx?$/.test(d.name) ? [p] : [];
  });
}

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** The web app's own pages whose path is also a contract's (the login and sign-up pages). */
const PAGES = new Set(['/auth/login', '/auth/signup']);

describe('endpoint contracts in the web app', () => {
  it('no source file writes the path of a contract: it calls the contract', async () => {
    const endpoints = await allEndpoints();
    expect(endpoints.length).toBeGreaterThan(25);
    // A string or template literal starting with the contract's fixed path, then its end, a query or a parameter.
    const patterns = [...new Set(endpoints.map(staticPathOf))]
      .filter((p) => !PAGES.has(p))
      .map((p) => [p, new RegExp(`['"\`]${escape(p)}(?:['"\`?]|/\\$\\{)`)] as const);
    const found: string[] = [];
    for (const file of sourceFiles(SRC)) {
      const text = fs.readFileSync(file, 'utf8');
      for (const [p, re] of patterns) if (re.test(text)) found.push(`${path.relative(SRC, file)}: ${p}`);
    }
    expect(found).toEqual([]);
  });
});

describe('callEndpoint', () => {
  afterEach(() => {
    clearSession();
    vi.unstubAllGlobals();
  });

  it('builds the path from the contract, sends its method and parses the answer', async () => {
    seedSession();
    const api = mockApi({
      'DELETE /tags/removetagfromuser/T%201/U1/7': { body: { message: 'ok' } },
      'GET /members/levels': { body: { day: '2026-01-01', data: [] } },
      'POST /notifications/readall': { body: { unread: 0 } },
    });
    await expect(
      callEndpoint(removeTagFromMember, { params: { teamId: 'T 1', memberId: 'U1', tagId: 7 } }),
    ).resolves.toEqual({ message: 'ok' });
    await expect(callEndpoint(getMemberLevels, { query: { team_id: 'T1' } })).resolves.toEqual({
      day: '2026-01-01',
      data: [],
    });
    expect(api.calls[1]!.query.get('team_id')).toBe('T1');
    // A POST whose contract takes no body sends {} (the client refuses a POST without one).
    await expect(callEndpoint(markAllNotificationsRead, {})).resolves.toEqual({ unread: 0 });
    expect(api.calls[2]!.body).toEqual({});
  });

  it('rejects an answer its contract cannot read', async () => {
    seedSession();
    mockApi({ 'POST /notifications/readall': { body: { unread: 'many' } } });
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const err = await callEndpoint(markAllNotificationsRead, {}).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ApiError);
    expect((err as ApiError).code).toBe('BAD_RESPONSE');
  });
});
