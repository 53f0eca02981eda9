import type { APIRequestContext, Locator, Page } from '@playwright/test';
import { expect, test } from './fixtures.ts';
import {
  axeViolations,
  demoCredentials,
  demoTeamId,
  directMessagesTo,
  logIn,
  pickOption,
} from './helpers.ts';

/*
 * Issue 35: a member who goes quiet becomes Slipping, and a workflow with the Member Level trigger "becomes
 * Slipping" DMs them once. Days cannot pass in a browser test: the server's test clock (DEV_CLOCK, refused in
 * production; apps/server/src/modules/activity/dev-clock.ts) moves the local day the levels job computes for, as
 * if days had passed with the member quiet. The levels are recomputed by the server's own minute tick
 * (`activity.levels.refresh`, which notices the new day), the change is recorded at the real time, and the
 * workflow's own tick fires it and sends the DM through delivery to the emulator.
 */

type Member = {
  member_id: string;
  real_name: string;
  deleted: boolean;
  last_active: number;
  level?: string | null;
};

/** YYYY-MM-DD of an instant in a zone. */
const localDay = (at: Date, timeZone: string) =>
  new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(
    at,
  );
const dayNumber = (day: string) => Math.round(Date.parse(`${day}T00:00:00Z`) / 86_400_000);
const addDays = (day: string, n: number) =>
  new Date((dayNumber(day) + n) * 86_400_000).toISOString().slice(0, 10);

async function api(request: APIRequestContext) {
  const demo = await demoCredentials(request);
  const login = await request.post('/api/v0/auth/login', {
    data: { email: demo.email, password: demo.password },
  });
  expect(login.status()).toBe(200);
  const body = (await login.json()) as { token: string; workspaces: { team_id: string; timezone: string }[] };
  return { headers: { authorization: `Bearer ${body.token}` }, workspaces: body.workspaces };
}

/** Sets the test clock: the levels are computed `days` days past today. */
async function levelsDaysAhead(request: APIRequestContext, days: number) {
  const res = await request.post('/api/dev/clock', { data: { levels_days_ahead: days } });
  expect(res.status(), 'the e2e server runs with DEV_CLOCK').toBe(200);
}

/** Waits for the server's own levels tick to have computed the levels for local day `day`. */
async function levelsComputedFor(
  request: APIRequestContext,
  headers: Record<string, string>,
  teamId: string,
  day: string,
) {
  await expect
    .poll(
      async () => {
        const res = await request.get(`/api/v0/members/levels?team_id=${teamId}`, { headers });
        return ((await res.json()) as { day: string | null }).day;
      },
      { timeout: 150_000, intervals: [2_000] },
    )
    .toBe(day);
}

const expectAccessible = async (page: Page, what: string, include?: string) =>
  expect(await axeViolations(page, include), `axe violations on ${what}`).toEqual([]);

const closed = (page: Page) => expect(page.getByRole('dialog')).toHaveCount(0);

async function pick(page: Page, scope: Locator, label: string, option: string) {
  await pickOption(page, scope.getByLabel(label, { exact: true }), option);
}

test('levels: a Regular member who goes quiet becomes Slipping; a "becomes Slipping" workflow DMs them once', async ({
  page,
  request,
}) => {
  test.setTimeout(720_000);
  const marker = Date.now().toString(36).slice(-6);
  const name = `Slipping check-in ${marker}`;
  const text = `We miss you in the community ${marker}`;
  const teamId = await demoTeamId(request);
  const { headers, workspaces } = await api(request);
  const tz = workspaces.find((w) => w.team_id === teamId)!.timezone;
  let workflowName: string | null = null;
  try {
    // Today's levels, whatever an earlier run left: the clock at today, the levels computed for today.
    await levelsDaysAhead(request, 0);
    const today = localDay(new Date(), tz);
    await levelsComputedFor(request, headers, teamId, today);

    // The Regulars and Champions, quietest first. The quietest (last active on day L) becomes Slipping once L is
    // 14 days back; the next quietest (last active later, on day L2) is the sentinel of the second recompute.
    const res = await request.post('/api/v0/members/getmembersdata', {
      headers,
      data: {
        team_id: teamId,
        levels: ['regular', 'champion'],
        sort: { field: 'last_active', direction: 'asc' },
        page_size: 500,
      },
    });
    expect(res.status()).toBe(200);
    const regulars = ((await res.json()) as { data: Member[] }).data
      .filter((m) => !m.deleted && m.last_active > 0)
      .map((m) => ({ ...m, lastDay: localDay(new Date(m.last_active / 1000), tz) }));
    const quiet = regulars[0]!;
    const sentinel = regulars.find((m) => m.lastDay > quiet.lastDay);
    expect(quiet, 'a Regular or Champion in the demo workspace').toBeTruthy();
    expect(sentinel, 'a Regular or Champion active later than the quietest').toBeTruthy();
    const slipsIn = dayNumber(quiet.lastDay) + 14 - dayNumber(today);
    const sentinelSlipsIn = dayNumber(sentinel!.lastDay) + 14 - dayNumber(today);
    expect(slipsIn).toBeGreaterThanOrEqual(1);
    expect(sentinelSlipsIn).toBeGreaterThan(slipsIn);
    expect(sentinelSlipsIn).toBeLessThanOrEqual(14);
    const wasLevel = quiet.level === 'champion' ? 'Champion' : 'Regular';

    // The workflow, through the UI: Member Level "becomes Slipping", then a DM to that member.
    const demo = await demoCredentials(request);
    await logIn(page, demo.email, demo.password);
    await expect(page).toHaveURL(/\/dashboard\/home$/);
    // Pages load their code on first visit: on a busy machine that takes a while.
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Workflows' }).click();
    await expect(page.getByRole('heading', { name: 'Workflows' })).toBeVisible({ timeout: 30_000 });
    await page.getByRole('link', { name: 'Create New WorkFlow' }).click();
    await expect(page.getByRole('heading', { name: 'Create Your WorkFlow' })).toBeVisible({
      timeout: 30_000,
    });
    await page.getByRole('button', { name: 'Initialize the workflow' }).click();
    const trigger = page.getByRole('dialog', { name: 'Initialize the Workflow' });
    await trigger.getByLabel('Workflow name').fill(name);
    await trigger.getByRole('radio', { name: 'Bot' }).check();
    await pick(page, trigger, 'Trigger type', 'Member Level');
    await pick(page, trigger, 'Level', 'Slipping');
    await expect(trigger.getByText('Was a Regular or Champion, quiet for the last 14 days')).toBeVisible();
    await expectAccessible(page, 'the Member Level trigger dialog', '[role="dialog"]');
    await trigger.getByRole('button', { name: 'Submit' }).click();
    await closed(page);

    await page.getByRole('button', { name: 'Add action' }).click();
    const action = page.getByRole('dialog', { name: 'Create an Action' });
    await action.getByText('Send Message', { exact: true }).click();
    await action.getByLabel('Message title').fill(`Miss you ${marker}`);
    await action.getByRole('textbox', { name: 'Message', exact: true }).click();
    await page.keyboard.type(text);
    await action.getByRole('checkbox', { name: /Users in criteria/ }).check();
    await action.getByRole('button', { name: 'Submit' }).click();
    await closed(page);
    await expectAccessible(page, 'the create page with a Member Level flow');
    workflowName = name;
    await page.getByRole('button', { name: 'Save' }).click();
    await expect(page.getByText('Workflow created successfully!')).toBeVisible({ timeout: 30_000 });
    await expect(page).toHaveURL(/\/dashboard\/workflows$/);
    const row = page.getByRole('table', { name: 'Workflows' }).locator('tbody tr').filter({ hasText: name });
    await expect(row.getByText('Member Level')).toBeVisible();
    await expect(row.getByText('Active', { exact: true })).toBeVisible();
    await expectAccessible(page, 'the workflows list');

    // The member's page: Regular (or Champion) today.
    const profile = page.locator('#level');
    await page.goto(`/dashboard/members/${quiet.member_id}`);
    await expect(profile.getByText(wasLevel, { exact: true })).toBeVisible({ timeout: 30_000 });
    await expectAccessible(page, "the member's page");
    expect(
      (await directMessagesTo(request, teamId, quiet.member_id)).filter((m) => m.text.includes(marker)),
    ).toHaveLength(0);

    // They stay quiet until their last active day is 14 days back: the levels tick recomputes for that day.
    await levelsDaysAhead(request, slipsIn);
    await levelsComputedFor(request, headers, teamId, addDays(today, slipsIn));
    const dmsTo = async (memberId: string) =>
      (await directMessagesTo(request, teamId, memberId)).filter((m) => m.text.includes(marker)).length;
    await expect.poll(() => dmsTo(quiet.member_id), { timeout: 150_000, intervals: [2_000] }).toBe(1);

    await page.reload();
    await expect(profile.getByText('Slipping', { exact: true })).toBeVisible({ timeout: 30_000 });
    await expect(page.getByRole('list', { name: 'Level history' })).toContainText(`${wasLevel} → Slipping`);
    await expectAccessible(page, "the member's page, Slipping");

    // Another recompute, days later: still Slipping, no new change, no second DM. The sentinel, who slips on
    // that day, is DMed by the same workflow: its tick has looked at the changes after that recompute.
    await levelsDaysAhead(request, sentinelSlipsIn);
    await levelsComputedFor(request, headers, teamId, addDays(today, sentinelSlipsIn));
    await expect.poll(() => dmsTo(sentinel!.member_id), { timeout: 150_000, intervals: [2_000] }).toBe(1);
    expect(await dmsTo(quiet.member_id)).toBe(1);
    await page.reload();
    await expect(profile.getByText('Slipping', { exact: true })).toBeVisible({ timeout: 30_000 });

    // The trigger's history: each of them once.
    await page.goto('/dashboard/workflows');
    await expect(row).toHaveCount(1, { timeout: 30_000 });
    await row.getByRole('button', { name: `View details of ${name}` }).click();
    const details = page.getByRole('dialog', { name: 'Workflow Details' });
    await expect(details.getByText('When a member becomes Slipping', { exact: false })).toBeVisible();
    await details.getByRole('link', { name: 'Trigger details' }).click();
    await expect(
      page.getByRole('heading', { name: `Trigger details for the workflow "${name}"` }),
    ).toBeVisible({ timeout: 30_000 });
    const history = page.getByRole('table', { name: 'Trigger details' });
    // Other members of the demo slip on those days too (the history runs over pages): each of ours, searched for.
    for (const m of [quiet, sentinel!]) {
      await page.getByRole('textbox', { name: 'Search', exact: true }).fill(m.real_name);
      await expect(history.locator('tbody tr').filter({ hasText: m.real_name })).toHaveCount(1, {
        timeout: 20_000,
      });
    }
    await page.getByRole('textbox', { name: 'Search', exact: true }).fill('');
    await expectAccessible(page, 'the trigger details page');
  } finally {
    // The levels of today again, and the workflow gone: the specs after this one see the workspace as it was.
    await levelsDaysAhead(request, 0);
    if (workflowName) {
      const list = (await (
        await request.get(`/api/v0/workflows/getworkflows/${teamId}`, { headers })
      ).json()) as { data: { workflow_id: number; workflow_name: string }[] };
      for (const w of list.data.filter((x) => x.workflow_name === workflowName))
        expect((await request.delete(`/api/v0/workflows/${teamId}/${w.workflow_id}`, { headers })).ok()).toBe(
          true,
        );
    }
  }
});
