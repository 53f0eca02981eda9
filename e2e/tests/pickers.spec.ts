import type { APIRequestContext, Page } from '@playwright/test';
import { expect, test } from './fixtures.ts';
import { axeViolations, demoCredentials, demoTeamId, emulatorURL, logIn, pickOption } from './helpers.ts';

/** Where the screenshots of the changed screens go when SCREENSHOTS is set (for a look, not for the test). */
const shots = process.env.SCREENSHOTS;
const shoot = async (page: Page, name: string) => {
  if (shots) await page.screenshot({ path: `${shots}/${name}.png` });
};

async function signIn(page: Page, request: APIRequestContext) {
  const demo = await demoCredentials(request);
  await logIn(page, demo.email, demo.password);
  await expect(page).toHaveURL(/\/dashboard\/home$/);
}

/** The demo workspace's people with an e-mail, as the emulator holds them (not the installing owner). */
async function peopleWithEmail(request: APIRequestContext, teamId: string) {
  const all = (await (
    await request.get(`${emulatorURL}/_admin/teams/${teamId}/members?format=json`)
  ).json()) as {
    id: string;
    real_name?: string;
    is_bot?: boolean;
    deleted?: boolean;
    is_primary_owner?: boolean;
    profile?: { email?: string; real_name?: string };
  }[];
  return all
    .filter((m) => !m.is_bot && !m.deleted && m.id !== 'USLACKBOT' && !m.is_primary_owner && m.profile?.email)
    .map((m) => ({ id: m.id, name: m.real_name || m.profile?.real_name || m.id, email: m.profile!.email! }));
}

test('compose: a pasted list of three e-mails adds three members; an entry matching nobody is named', async ({
  page,
  request,
  context,
}) => {
  test.setTimeout(120_000);
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  const teamId = await demoTeamId(request);
  const people = await peopleWithEmail(request, teamId);
  expect(people.length).toBeGreaterThan(20);
  // Three members far apart in the directory (not what the first suggestions would hold).
  const chosen = [people[people.length - 1]!, people[Math.floor(people.length / 2)]!, people[1]!];
  const nobody = `nobody.${Date.now().toString(36)}@nowhere.test`;
  await signIn(page, request);

  await page.goto('/dashboard/actions/automate');
  await page.getByRole('button', { name: 'Create Trigger' }).click();
  const start = page.getByRole('dialog', { name: 'Create Trigger' });
  await pickOption(page, start.getByLabel('Choose Trigger', { exact: true }), 'Member Join');
  await start.getByRole('radio', { name: 'Bot' }).check();
  await start.getByRole('button', { name: 'Next' }).click();
  const dialog = page.getByRole('dialog', { name: 'Compose Message' });
  const members = dialog.getByRole('combobox', { name: 'Members', exact: true });
  await expect(members).toBeVisible();

  // Pasted as a person pastes from a spreadsheet or a mail: mixed separators and letter case, a line break.
  const list = `${chosen[0]!.email.toUpperCase()}, ${chosen[1]!.email};${chosen[2]!.email}\n${nobody}`;
  await page.evaluate((text) => navigator.clipboard.writeText(text), list);
  await members.click();
  await page.keyboard.press('ControlOrMeta+V');

  const field = members.locator('xpath=ancestor::div[contains(@class, "mantine-InputWrapper-root")][1]');
  for (const p of chosen) await expect(field.getByText(p.name, { exact: true })).toBeVisible();
  await expect(field.getByText(`1 member not found: ${nobody}`)).toBeVisible();
  await expect(members).toHaveValue('');
  expect(await axeViolations(page, '[role="dialog"]'), 'axe violations on Compose Message').toEqual([]);
  await shoot(page, 'compose-pasted-desktop');
  if (shots) {
    await page.setViewportSize({ width: 390, height: 844 });
    await members.scrollIntoViewIfNeeded();
    await shoot(page, 'compose-pasted-phone');
    expect(await axeViolations(page, '[role="dialog"]'), 'axe violations on Compose Message (phone)').toEqual(
      [],
    );
    await page.setViewportSize({ width: 1440, height: 900 });
  }

  // The three members are what the trigger would send to (the request is answered here: nothing is created).
  let sent: { dms?: { members?: string[] } } | null = null;
  await page.route('**/api/v0/actions/createautomation', async (route) => {
    sent = route.request().postDataJSON() as typeof sent;
    await route.fulfill({
      status: 409,
      contentType: 'application/json',
      body: JSON.stringify({ statusCode: 409, code: 'CONFLICT', message: 'Not created in this test' }),
    });
  });
  await dialog.getByRole('textbox', { name: 'Message' }).click();
  await page.keyboard.type('Welcome aboard');
  await dialog.getByRole('button', { name: 'create Trigger' }).click();
  await expect(page.getByText('Not created in this test')).toBeVisible();
  expect([...(sent!.dms?.members ?? [])].sort()).toEqual(chosen.map((p) => p.id).sort());
});

test('add tag: the same picker takes a pasted list on the Members page', async ({
  page,
  request,
  context,
}) => {
  test.setTimeout(90_000);
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  const teamId = await demoTeamId(request);
  const people = await peopleWithEmail(request, teamId);
  const chosen = [people[2]!, people[people.length - 2]!];
  await signIn(page, request);
  await page.goto('/dashboard/members');
  await page.getByRole('button', { name: 'Add Tag' }).click();
  const dialog = page.getByRole('dialog', { name: 'Add Tag' });
  const members = dialog.getByRole('combobox', { name: 'Members', exact: true });
  await page.evaluate(
    (text) => navigator.clipboard.writeText(text),
    `${chosen[0]!.email} ${chosen[1]!.email.toUpperCase()}; ghost@nowhere.test, who@nowhere.test`,
  );
  await members.click();
  await page.keyboard.press('ControlOrMeta+V');
  for (const p of chosen) await expect(dialog.getByText(p.name, { exact: true })).toBeVisible();
  await expect(dialog.getByText('2 members not found: ghost@nowhere.test, who@nowhere.test')).toBeVisible();
  expect(await axeViolations(page, '[role="dialog"]'), 'axe violations on Add Tag').toEqual([]);
  await shoot(page, 'add-tag-pasted-desktop');
  if (shots) {
    await page.setViewportSize({ width: 390, height: 844 });
    await shoot(page, 'add-tag-pasted-phone');
    expect(await axeViolations(page, '[role="dialog"]'), 'axe violations on Add Tag (phone)').toEqual([]);
  }
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await expect(dialog).toBeHidden();
});

test('threads: sorting by Replies asks the server for the whole window, most replied first', async ({
  page,
  request,
}) => {
  test.setTimeout(120_000);
  await signIn(page, request);
  await page.goto('/dashboard/actions/threads');
  const table = page.getByRole('table', { name: 'Threads' });
  await expect(table.locator('tbody tr').first()).toBeVisible({ timeout: 30_000 });

  const asked = page.waitForRequest((r) =>
    /\/actions\/getthreads\/.*[?&]sort=replies&direction=desc/.test(r.url()),
  );
  await table.getByRole('button', { name: 'Replies' }).click();
  const request1 = await asked;
  await expect(table.getByRole('columnheader', { name: 'Replies' })).toHaveAttribute(
    'aria-sort',
    'descending',
  );

  // The server's answer over the whole window, in its order: the table shows its first rows as they come.
  const answer = (await (await request1.response())!.json()) as { data: { replies: number; ts: string }[] };
  expect(answer.data.length).toBeGreaterThan(0);
  const counts = answer.data.map((t) => t.replies);
  expect(counts).toEqual([...counts].sort((a, b) => b - a));
  const cells = table.locator('tbody tr td:nth-child(5)');
  await expect(cells.first()).toHaveText(String(counts[0]));
  const shown = (await cells.allTextContents()).map(Number);
  expect(shown).toEqual(counts.slice(0, shown.length));
  // No thread of the window has more replies than the first (the whole 7 days, every page, newest first).
  const demo = await demoCredentials(request);
  const login = await request.post('/api/v0/auth/login', { data: demo });
  const token = (await login.json()).token as string;
  const url = new URL(request1.url());
  const byTime = url.pathname.replace(/^\/api\/v0/, '');
  let most = 0;
  let cursor: string | null = null;
  do {
    const res = await request.get(`/api/v0${byTime}?limit=200${cursor ? `&cursor=${cursor}` : ''}`, {
      headers: { authorization: `Bearer ${token}` },
    });
    expect(res.status()).toBe(200);
    const body = (await res.json()) as { data: { replies: number }[]; next_cursor: string | null };
    most = Math.max(most, ...body.data.map((t) => t.replies));
    cursor = body.next_cursor;
  } while (cursor);
  expect(counts[0]).toBe(most);

  expect(await axeViolations(page), 'axe violations on Threads sorted by replies').toEqual([]);
  await shoot(page, 'threads-by-replies-desktop');
  if (shots) {
    await page.setViewportSize({ width: 390, height: 844 });
    await table.scrollIntoViewIfNeeded();
    // The table scrolls sideways on a phone: show its Replies column.
    await table
      .getByRole('columnheader', { name: 'Replies' })
      .evaluate((th) => th.scrollIntoView({ inline: 'center', block: 'nearest' }));
    await shoot(page, 'threads-by-replies-phone');
    expect(await axeViolations(page), 'axe violations on Threads (phone)').toEqual([]);
  }
});
