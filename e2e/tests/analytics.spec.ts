import fs from 'node:fs';
import type { APIRequestContext, Download, Locator, Page } from '@playwright/test';
import { expect, test } from './fixtures.ts';
import { signInToDemo } from './helpers.ts';

/** A CSV line as the product writes it: quoted strings ("" inside), bare numbers, comma-separated. */
function parseCsvLine(line: string): string[] {
  const cells: string[] = [];
  const re = /(?:"((?:[^"]|"")*)"|([^,]*))(?:,|$)/g;
  let m: RegExpExecArray | null;
  while ((m = re.exec(line)) && m[0] !== '')
    cells.push(m[1] !== undefined ? m[1].replace(/""/g, '"') : m[2]!);
  return cells;
}

async function readCsv(download: Download): Promise<string[][]> {
  const text = fs.readFileSync((await download.path())!, 'utf8');
  expect(text.charCodeAt(0)).toBe(0xfeff);
  return text.slice(1).trimEnd().split('\r\n').map(parseCsvLine);
}

async function downloadFrom(page: Page, button: Locator): Promise<Download> {
  const [download] = await Promise.all([page.waitForEvent('download'), button.click()]);
  return download;
}

const num = (s: string) => Number(s.replace(/,/g, ''));
const region = (page: Page, name: string) => page.getByRole('region', { name, exact: true });

async function pickTime(page: Page, card: Locator, label: string, option: string) {
  await card.getByRole('combobox', { name: label }).click();
  await page.getByRole('option', { name: option, exact: true }).click();
}

async function customRange(page: Page, card: Locator, label: string, start: string, end: string) {
  await card.getByRole('combobox', { name: label }).click();
  await page.getByRole('option', { name: 'Custom range…' }).click();
  const dialog = page.getByRole('dialog', { name: 'Choose Start and End Dates' });
  await dialog.getByLabel('Start date').fill(start);
  await dialog.getByLabel('End date').fill(end);
  await dialog.getByRole('button', { name: 'Submit' }).click();
  await expect(dialog).toBeHidden();
}

/** The demo signed in with its history imported, and Home loaded afresh (the import's banner gone). */
async function signInToDemoHome(page: Page, request: APIRequestContext) {
  await signInToDemo(page, request);
  await expect(page.getByText(/Importing history/)).toBeHidden({ timeout: 60_000 });
  await page.reload();
}

test('home: cards and charts with data, time filters, bot name, task board, More Channels', async ({
  page,
  request,
}) => {
  test.setTimeout(120_000);
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  await signInToDemoHome(page, request);

  await expect(page.getByRole('group', { name: 'Messages' })).toBeVisible({ timeout: 20_000 });
  for (const name of ['Workspace Highlights', 'Activity', 'Reactions & Messages']) {
    await expect(region(page, name).locator('[data-chart]').first()).toBeVisible();
  }
  await expect(region(page, 'Content Generation').getByText(/^Members \d/)).toBeVisible();
  const top = page.getByRole('table', { name: 'Top Performing Members' });
  await expect(top.locator('tbody tr').first()).toBeVisible();
  const totals = async () =>
    (
      await top.locator('tbody tr').evaluateAll((rows) =>
        rows.map((r) =>
          Array.from(r.querySelectorAll('td'))
            .slice(2)
            .map((td) => td.textContent ?? ''),
        ),
      )
    ).map((cells) => cells.reduce((s, c) => s + num(c), 0));
  const week = await totals();
  expect(week).toEqual([...week].sort((a, b) => b - a));
  // A longer window never shows less activity for the most active member.
  await pickTime(
    page,
    region(page, 'Top Performing Members'),
    'Top Performing Members time filter',
    'Last 14 days',
  );
  await expect.poll(async () => (await totals())[0]).toBeGreaterThanOrEqual(week[0]!);

  // Customise Bot: a broken name is refused, a good one is saved and survives a reload.
  const bot = region(page, 'Customise Bot');
  const name = bot.getByRole('textbox', { name: 'Bot name' });
  await name.fill('bad--name');
  await expect(bot.getByText('Username should not contain two or more Hypens')).toBeVisible();
  await expect(bot.getByRole('button', { name: 'Submit' })).toBeDisabled();
  await name.fill('community-bot');
  await bot.getByRole('button', { name: 'Submit' }).click();
  await expect(page.getByText('Bot Details Uploaded Successfully!')).toBeVisible();

  // Task board: create a task, move it with the keyboard (its own title, so runs side by side stay apart).
  const taskTitle = `Plan the e2e meetup ${Date.now().toString(36)}`;
  const tasks = region(page, 'Tasks');
  await tasks.getByRole('button', { name: 'New task' }).click();
  const dialog = page.getByRole('dialog', { name: 'New task' });
  await dialog.getByRole('textbox', { name: 'Title' }).fill(taskTitle);
  await dialog.getByRole('button', { name: 'Save' }).click();
  const task = tasks.getByRole('list', { name: 'To do' }).getByRole('listitem', { name: taskTitle });
  await expect(task).toBeVisible();
  await task.focus();
  await page.keyboard.press('ArrowRight');
  await expect(
    tasks.getByRole('list', { name: 'In progress' }).getByRole('listitem', { name: taskTitle }),
  ).toBeVisible();

  await page.reload();
  await expect(region(page, 'Customise Bot').getByRole('textbox', { name: 'Bot name' })).toHaveValue(
    'community-bot',
  );
  await expect(
    region(page, 'Tasks')
      .getByRole('list', { name: 'In progress' })
      .getByRole('listitem', { name: taskTitle }),
  ).toBeVisible();

  // More Channels leads to the channel table of Analytics.
  await region(page, 'Top Channels')
    .getByRole('link', { name: /More Channels/ })
    .click();
  await expect(page).toHaveURL(/\/dashboard\/analytics#channel$/);
  await expect(region(page, 'Channel Activity')).toBeInViewport({ timeout: 15_000 });
  expect(errors).toEqual([]);
});

test('analytics: stat cards, filters change what is shown, CSV downloads parsed and checked', async ({
  page,
  request,
}) => {
  test.setTimeout(150_000);
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  await signInToDemoHome(page, request);
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Analytics' }).click();
  await expect(page.getByRole('group', { name: 'Total Activity' })).toBeVisible({ timeout: 20_000 });
  // The change against the week before: a signed percent, or 0% when the two weeks are equal (the demo's generated
  // history can tie), never "new" or "history incomplete" (the demo holds two weeks).
  const messagesChange = page.getByRole('group', { name: 'Messages' }).locator('[data-sign]');
  await expect(messagesChange).toHaveText(/^([+-]\d[\d.,]*%|0%)$/);
  const changeText = (await messagesChange.textContent()) ?? '';
  const tone = changeText === '0%' ? 'flat' : changeText.startsWith('+') ? 'up' : 'down';
  expect(await messagesChange.getAttribute('data-tone')).toBe(tone);

  // Activity: table view; 7 days then 14 days shows more days; the CSV is what the table shows.
  const activity = region(page, 'Activity');
  await activity.getByRole('radio', { name: 'Table' }).click();
  const activityRows = activity.getByRole('table', { name: 'Activity table' }).locator('tbody tr');
  await expect(activityRows.first()).toBeVisible();
  const weekDays = await activityRows.count();
  expect(weekDays).toBeLessThanOrEqual(7);
  await pickTime(page, activity, 'Activity time filter', 'Last 14 days');
  await expect.poll(() => activityRows.count()).toBeGreaterThan(weekDays);
  const tableCells = await activityRows.evaluateAll((rows) =>
    rows.map((r) => Array.from(r.querySelectorAll('td')).map((td) => td.textContent ?? '')),
  );
  const csv = await readCsv(
    await downloadFrom(page, activity.getByRole('button', { name: 'Download Activity CSV' })),
  );
  expect(csv[0]).toEqual(['Date', 'Messages', 'Replies', 'Reactions']);
  expect(csv.slice(1).reverse()).toEqual(
    tableCells.map((c) => [c[0], ...c.slice(1).map((v) => String(num(v)))]),
  );
  const workspaceMessages = csv.slice(1).reduce((s, r) => s + Number(r[1]), 0);

  // One channel shows no more than the whole workspace.
  await activity.getByRole('combobox', { name: 'Activity channel' }).click();
  await page.getByRole('option', { name: /^#/ }).first().click();
  await expect
    .poll(async () => {
      const cells = await activityRows.locator('td:nth-child(2)').allTextContents();
      return cells.reduce((s, c) => s + num(c), 0);
    })
    .toBeLessThan(workspaceMessages);

  // Activity Trends: 12-hour slots give two bars.
  const trends = region(page, 'Activity Trends');
  await trends.getByRole('combobox', { name: 'Slot' }).click();
  await page.getByRole('option', { name: '12 hrs' }).click();
  await expect(trends.locator('[data-bar]')).toHaveCount(2);

  // Word cloud words carry whole-percent weights.
  const words = page.getByRole('list', { name: 'Word cloud' }).getByRole('listitem');
  await expect(words.first()).toBeVisible();
  expect(Number(await words.first().getAttribute('data-weight'))).toBeGreaterThan(0);

  // Users: CSV with its headers, one row per day.
  const users = region(page, 'Users');
  const usersCsv = await readCsv(
    await downloadFrom(page, users.getByRole('button', { name: 'Download Users CSV' })),
  );
  expect(usersCsv[0]).toEqual([
    'Date',
    'Members Joined',
    'Members Left',
    'Active Members',
    'Overall Members',
  ]);
  expect(usersCsv.length).toBeGreaterThan(1);
  for (const r of usersCsv.slice(1)) expect(r[0]).toMatch(/^\d{4}-\d{2}-\d{2}$/);

  // Members Activity: Filter by Activity (Messages > 2) leaves only such members; CSV matches the count.
  const members = region(page, 'Members Activity');
  await expect(
    members.getByRole('table', { name: 'Members Activity' }).locator('tbody tr').first(),
  ).toBeVisible();
  await pickTime(page, members, 'Members Activity time filter', 'Last 14 days');
  await members.getByRole('button', { name: 'Filter by Activity' }).click();
  const filter = page.getByRole('dialog', { name: 'Activity Filter' });
  await filter.getByRole('combobox', { name: 'Messages operator' }).click();
  await page.getByRole('option', { name: '>', exact: true }).click();
  await filter.getByRole('textbox', { name: 'Messages count' }).fill('2');
  await filter.getByRole('button', { name: 'Apply' }).click();
  await expect(filter).toBeHidden();
  const memberMessages = members
    .getByRole('table', { name: 'Members Activity' })
    .locator('tbody td:nth-child(4)');
  await expect
    .poll(async () => {
      const counts = await memberMessages.allTextContents();
      return counts.length > 0 && counts.every((c) => num(c) > 2);
    })
    .toBe(true);
  const shownCount = Number((await members.getByText(/^\d+ members?$/).textContent())!.split(' ')[0]);
  const membersCsv = await readCsv(
    await downloadFrom(page, members.getByRole('button', { name: 'Download Members Activity CSV' })),
  );
  expect(membersCsv[0]).toEqual([
    'Real Name',
    'Display Name',
    'Email',
    'Messages',
    'Replies',
    'Reactions',
    'Activity',
  ]);
  expect(membersCsv.length - 1).toBe(shownCount);
  for (const r of membersCsv.slice(1)) {
    expect(Number(r[3])).toBeGreaterThan(2);
    expect(Number(r[6])).toBe(Number(r[3]) + Number(r[4]) + Number(r[5]));
  }

  // Channel Activity: CSV equals the table, busiest first.
  const channels = region(page, 'Channel Activity');
  const channelRows = channels.getByRole('table', { name: 'Channel Activity' }).locator('tbody tr');
  await expect(channelRows.first()).toBeVisible();
  const channelCells = await channelRows.evaluateAll((rows) =>
    rows.map((r) => Array.from(r.querySelectorAll('td')).map((td) => td.textContent ?? '')),
  );
  const channelsCsv = await readCsv(
    await downloadFrom(page, channels.getByRole('button', { name: 'Download Channel Activity CSV' })),
  );
  expect(channelsCsv[0]).toEqual(['Channel Name', 'Messages', 'Replies', 'Reactions', 'Activity']);
  expect(channelsCsv.slice(1)).toEqual(
    // Channel names as on screen, '#' included.
    channelCells.map((c) => [c[0]!, ...c.slice(1).map((v) => String(num(v)))]),
  );
  const activities = channelsCsv.slice(1).map((r) => Number(r[4]));
  expect(activities).toEqual([...activities].sort((a, b) => b - a));
  expect(errors).toEqual([]);
});

test('empty windows: every Home and Analytics chart and table shows its empty state without errors', async ({
  page,
  request,
}) => {
  test.setTimeout(150_000);
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  await signInToDemoHome(page, request);
  // Long before the demo's history: nothing happened in January 2020.
  const [start, end] = ['2020-01-01', '2020-01-31'];
  for (const name of [
    'Workspace Highlights',
    'Content Generation',
    'Activity',
    'Top Channels',
    'Top Performing Members',
    'Reactions & Messages',
  ]) {
    const card = region(page, name);
    await customRange(page, card, `${name} time filter`, start, end);
    await expect(card.getByText('No Data Found')).toBeVisible();
  }
  await page.goto('/dashboard/analytics');
  for (const [name, label] of [
    ['Activity', 'Activity time filter'],
    ['Activity Trends', 'Activity Trends time filter'],
    ['Word Cloud', 'Word cloud time filter'],
    ['Users', 'Users time filter'],
    ['Members Activity', 'Members Activity time filter'],
    ['Channel Activity', 'Channel Activity time filter'],
  ] as const) {
    const card = region(page, name);
    await expect(card.getByRole('combobox', { name: label })).toBeVisible({ timeout: 20_000 });
    await customRange(page, card, label, start, end);
    if (name === 'Users') {
      // Members who were already there count as overall members; nobody joined, left or was active.
      await card.getByRole('radio', { name: 'Table' }).click();
      const rows = card.getByRole('table', { name: 'Users table' }).locator('tbody tr');
      await expect(rows).toHaveCount(31);
      for (const col of [2, 3, 4]) {
        const cells = await rows.locator(`td:nth-child(${col})`).allTextContents();
        expect(cells.every((c) => c === '0')).toBe(true);
      }
    } else {
      await expect(card.getByText('No Data Found')).toBeVisible();
    }
  }
  await expect(page.getByText('Failed to get data!')).toHaveCount(0);
  expect(errors).toEqual([]);
});
