import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { expect, type APIRequestContext, type Locator, type Page } from '@playwright/test';
import { server } from '../servers.ts';

/**
 * Opens a select and picks an option, as a person does: when the list is not open after a click (the click landed
 * while the page was still moving, e.g. a table's first rows pushing its pager down on a busy machine), they click
 * again. The option must then be chosen: the select shows it.
 */
export async function pickOption(page: Page, combobox: Locator, option: string) {
  await expect(async () => {
    const item = page.getByRole('option', { name: option, exact: true });
    if (!(await item.isVisible())) await combobox.click();
    await item.click({ timeout: 3_000 });
  }).toPass({ timeout: 30_000 });
  await expect(combobox).toHaveValue(option);
}

let n = 0;
export const uniqueEmail = (prefix: string) => `${prefix}.${Date.now().toString(36)}.${++n}@example.com`;

/** The newest link of the newest matching mail in the development outbox. */
export async function outboxLink(request: APIRequestContext, to: string, subject: RegExp): Promise<string> {
  let link: string | undefined;
  await expect
    .poll(
      async () => {
        const res = await request.get(`/api/dev/outbox?to=${encodeURIComponent(to)}`);
        const mail = ((await res.json()).messages as { subject: string; links: string[] }[]).find((m) =>
          subject.test(m.subject),
        );
        link = mail?.links[0];
        return link;
      },
      { timeout: 15_000 },
    )
    .toBeTruthy();
  return link!;
}

/** A verified account made through the API (for tests about other flows). */
export async function verifiedAccount(request: APIRequestContext, prefix = 'user') {
  const email = uniqueEmail(prefix);
  const password = 'correct horse battery';
  const res = await request.post('/api/v0/auth/signup', {
    data: { email, password, username: 'Riley Admin', country: 'Canada' },
  });
  expect(res.status()).toBe(201);
  const link = await outboxLink(request, email, /verify/i);
  const token = new URL(link).searchParams.get('token');
  expect((await request.post('/api/v0/auth/verifyemail', { data: { token } })).status()).toBe(200);
  return { email, password };
}

export async function logIn(page: Page, email: string, password: string) {
  await page.goto('/auth/login');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: /log ?in|sign ?in/i }).click();
}

/** The server finishes connecting its demo workspace just after it starts listening: wait for it. */
export async function demoCredentials(
  request: APIRequestContext,
): Promise<{ email: string; password: string }> {
  let creds: { email: string; password: string } | undefined;
  await expect
    .poll(
      async () => {
        const c = (await (await request.get('/api/v0/public/config')).json()) as {
          demoMode: boolean;
          demoEmail: string;
          demoPassword: string;
        };
        if (c.demoMode) creds = { email: c.demoEmail, password: c.demoPassword };
        return c.demoMode;
      },
      { timeout: 30_000 },
    )
    .toBe(true);
  return creds!;
}

/**
 * Gives the tags named `names` (made when the demo workspace has none of that name) to `userIds`, through the API
 * as the Members screen does. Returns the tags.
 */
export async function tagMembers(
  request: APIRequestContext,
  teamId: string,
  names: string[],
  userIds: string[],
): Promise<{ id: number; name: string }[]> {
  const demo = await demoCredentials(request);
  const login = await request.post('/api/v0/auth/login', {
    data: { email: demo.email, password: demo.password },
  });
  const headers = { authorization: `Bearer ${(await login.json()).token as string}` };
  const existing = (
    (await (await request.get(`/api/v0/tags/gettags/${teamId}`, { headers })).json()) as {
      data: { id: number; name: string }[];
    }
  ).data;
  const tags: { id: number; name: string }[] = [];
  for (const name of names) {
    const found = existing.find((t) => t.name.toLowerCase() === name.toLowerCase());
    if (found) {
      tags.push(found);
      continue;
    }
    const created = await request.post('/api/v0/tags/createtag', {
      headers,
      data: { team_id: teamId, name },
    });
    expect(created.status(), `create tag ${name}`).toBe(201);
    tags.push({ id: (await created.json()).data.id as number, name });
  }
  const added = await request.post('/api/v0/tags/addtagtousers', {
    headers,
    data: { team_id: teamId, tags, users: userIds.map((id) => ({ id })) },
  });
  expect(added.ok(), 'add the tags').toBe(true);
  return tags;
}

/** A member of an emulator workspace, as its admin API lists them. */
export type EmulatorMember = {
  id: string;
  real_name: string;
  is_bot: boolean;
  deleted: boolean;
  is_primary_owner?: boolean;
};

/** The people of the demo workspace: no bots, no one who left, not Slackbot and not the installing owner. */
export async function demoPeople(request: APIRequestContext, teamId: string): Promise<EmulatorMember[]> {
  const all = (await (
    await request.get(`${emulatorURL}/_admin/teams/${teamId}/members?format=json`)
  ).json()) as EmulatorMember[];
  return all.filter((m) => !m.is_bot && !m.deleted && m.id !== 'USLACKBOT' && !m.is_primary_owner);
}

/** This worker's demo Slack emulator (its server starts it; servers.ts says where). */
export const emulatorURL = server.emulatorURL;

/** The emulator workspace the demo account manages (the installed one). */
export async function demoTeamId(request: APIRequestContext): Promise<string> {
  const state = (await (await request.get(`${emulatorURL}/_admin/state`)).json()) as {
    teams: { id: string; installed: boolean }[];
  };
  const team = state.teams.find((t) => t.installed);
  expect(team, 'an installed emulator workspace').toBeTruthy();
  return team!.id;
}

type EmulatorMessage = { channel: string; ts: string; text: string; user?: string; bot_id?: string };
type EmulatorChannel = { id: string; is_im: boolean; members?: string[]; user?: string };

/** Every message in the member's direct-message channels with the app, as the emulator holds them. */
export async function directMessagesTo(
  request: APIRequestContext,
  teamId: string,
  memberId: string,
): Promise<EmulatorMessage[]> {
  const channels = (await (
    await request.get(`${emulatorURL}/_admin/teams/${teamId}/channels`)
  ).json()) as EmulatorChannel[];
  const ims = channels.filter((c) => c.is_im && (c.members?.includes(memberId) || c.user === memberId));
  const out: EmulatorMessage[] = [];
  for (const im of ims) {
    const res = await request.get(
      `${emulatorURL}/_admin/teams/${teamId}/messages?channel=${im.id}&format=json`,
    );
    out.push(...((await res.json()) as EmulatorMessage[]));
  }
  return out;
}

/**
 * Runs axe-core on the page (WCAG 2 A/AA rules) and returns its violations as readable lines. axe's source is
 * evaluated through the DevTools protocol, so the app's Content-Security-Policy stays as it is.
 */
export async function axeViolations(page: Page, include?: string): Promise<string[]> {
  // Transitions first: a fade still running (an overlay leaving, a row appearing) is a blend of colours that axe
  // reads as low contrast, and on a busy machine one can still be running when the data is on the page. Endless
  // animations (a spinner) are not waited for; nor is anything for more than 10 s (axe then checks what is there).
  await page
    .waitForFunction(
      () =>
        document
          .getAnimations()
          .every((a) => a.playState !== 'running' || a.effect?.getComputedTiming().iterations === Infinity),
      null,
      { timeout: 10_000 },
    )
    .catch(() => undefined);
  const source = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
  await page.evaluate(source);
  const violations = await page.evaluate(async (selector) => {
    const axe = (window as unknown as { axe: { run(ctx: unknown, opts: unknown): Promise<unknown> } }).axe;
    const result = (await axe.run(selector ? { include: [selector] } : document, {
      runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'] },
    })) as { violations: { id: string; help: string; nodes: { target: string[]; html: string }[] }[] };
    return result.violations.map(
      (v) =>
        `${v.id}: ${v.help} (${v.nodes
          .map((n) => `${n.target.join(' ')} ${n.html.slice(0, 120)}`)
          .slice(0, 5)
          .join(' | ')})`,
    );
  }, include ?? null);
  return violations;
}

/**
 * Signs in to the demo in the browser, and with the API (its headers), and waits until the demo's history import
 * is done (pages that read the rollups need it): answers the API's headers and the demo's team id.
 */
export async function signInToDemo(page: Page, request: APIRequestContext) {
  const demo = await demoCredentials(request);
  await logIn(page, demo.email, demo.password);
  await expect(page).toHaveURL(/\/dashboard\/home$/);
  const login = await request.post('/api/v0/auth/login', {
    data: { email: demo.email, password: demo.password },
  });
  const headers = { authorization: `Bearer ${(await login.json()).token as string}` };
  const teamId = await demoTeamId(request);
  await expect
    .poll(
      async () =>
        (
          (await (await request.get(`/api/v0/workspaces/status/${teamId}`, { headers })).json()) as {
            backfill?: { status?: string };
          }
        ).backfill?.status,
      { timeout: 90_000 },
    )
    .toBe('done');
  return { headers, teamId };
}

/** The Members Data table's rows. */
export const membersRows = (page: Page) =>
  page.getByRole('table', { name: 'Members Data' }).locator('tbody tr');

/**
 * Picks the Members page's time filter and waits for its rows: the table no longer busy (while it fetches the
 * window it still shows the previous window's rows, which a check could land on; a click's re-render marks it
 * busy before the click returns), with at least `rows` rows.
 */
export async function membersForWindow(page: Page, window: string, rows: number) {
  await pickOption(page, page.getByRole('combobox', { name: 'Time filter', exact: true }), window);
  await expect(page.getByRole('table', { name: 'Members Data' })).not.toHaveAttribute('aria-busy', 'true', {
    timeout: 30_000,
  });
  await expect(membersRows(page).nth(rows - 1)).toBeVisible({ timeout: 30_000 });
}

/**
 * Selects the first `n` members of the list by their ids, read in one go (the list is live: it refetches and
 * its order by activity can change between two reads, so rows checked one at a time by position could be
 * two different lists' rows). Returns the ids.
 */
export async function selectFirstMembers(page: Page, n: number): Promise<string[]> {
  const ids = (
    await membersRows(page).evaluateAll(
      (rows, count) =>
        rows.slice(0, count).map((r) => r.querySelector('a')?.getAttribute('href')?.split('/').pop() ?? ''),
      n,
    )
  ).filter(Boolean);
  expect(new Set(ids).size).toBe(n);
  for (const id of ids) await page.locator(`tbody tr:has(a[href$="/${id}"])`).getByRole('checkbox').check();
  return ids;
}
