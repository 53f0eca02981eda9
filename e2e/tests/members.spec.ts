import fs from 'node:fs';
import type { Page } from '@playwright/test';
import { expect, test } from './fixtures.ts';
import { demoCredentials, logIn, pickOption } from './helpers.ts';

const table = (page: Page) => page.getByRole('table', { name: 'Members Data' });
const bodyRows = (page: Page) => table(page).locator('tbody tr');

/** A quoted CSV line: "a","b" with "" for a quote inside. */
function parseCsvLine(line: string): string[] {
  const cells: string[] = [];
  const re = /"((?:[^"]|"")*)"(?:,|$)/g;
  let m: RegExpExecArray | null;
  while ((m = re.exec(line))) cells.push(m[1]!.replace(/""/g, '"'));
  return cells;
}

test('members: filter, tag several, remove a tag, export CSV, open a member, tabs, top-bar search', async ({
  page,
  request,
}) => {
  test.setTimeout(120_000);
  const demo = await demoCredentials(request);
  await logIn(page, demo.email, demo.password);
  await expect(page).toHaveURL(/\/dashboard\/home$/);

  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Members' }).click();
  await expect(page).toHaveURL(/\/dashboard\/members$/);
  await expect(page.getByText('Members Data')).toBeVisible();

  // The demo's history import fills the rollups; the last 90 days, 25 rows per page. The first page is there before
  // the pager under it is used (its rows move it down as they arrive).
  await expect(bodyRows(page).first()).toBeVisible({ timeout: 30_000 });
  await pickOption(page, page.getByRole('combobox', { name: 'Rows per page' }), '25');
  await pickOption(page, page.getByRole('combobox', { name: 'Time filter' }), 'Last 90 days');
  await expect(bodyRows(page)).toHaveCount(25, { timeout: 30_000 });

  // Activity Filter: Messages > 2 → every row shows more than 2 messages.
  await page.getByRole('button', { name: 'Activity Filter' }).click();
  const activity = page.getByRole('dialog', { name: 'Activity Filter' });
  await pickOption(page, activity.getByRole('combobox', { name: 'Messages operator' }), '>');
  await activity.getByRole('textbox', { name: 'Messages count' }).fill('2');
  await activity.getByRole('button', { name: 'Apply' }).click();
  await expect(activity).toBeHidden();
  await expect
    .poll(async () => {
      const counts = await bodyRows(page).locator('td:nth-child(5)').allTextContents();
      return counts.length > 0 && counts.every((c) => Number(c) > 2);
    })
    .toBe(true);
  // 'N members', or 'N members · K left' when some of them left the workspace.
  const filteredTotal = await page.getByText(/^\d+ members?( · \d+ left)?$/).textContent();

  // Tag three members: check their rows, Add Tag, create a new tag from the picker.
  // The three rows' members read in one go, then each checked by its member: the list is live (it refetches,
  // and rows read one at a time could come from two different answers).
  const picked = await bodyRows(page).evaluateAll((rows) =>
    rows.slice(0, 3).map((r) => {
      const a = r.querySelector('td:nth-child(2) a');
      return { id: a?.getAttribute('href')?.split('/').pop() ?? '', name: a?.textContent?.trim() ?? '' };
    }),
  );
  const names = picked.map((p) => p.name);
  expect(new Set(picked.map((p) => p.id)).size).toBe(3);
  for (const { id } of picked)
    await page.locator(`tbody tr:has(a[href$="/${id}"])`).getByRole('checkbox').check();
  await expect(page.getByText(`3 selected · ${filteredTotal}`)).toBeVisible();
  await page.getByRole('button', { name: 'Add Tag' }).click();
  const addTag = page.getByRole('dialog', { name: 'Add Tag' });
  for (const n of names) await expect(addTag.getByText(n, { exact: true })).toBeVisible();
  const tagName = `e2e${Date.now().toString(36)}`;
  await addTag.getByRole('combobox', { name: 'Tags' }).fill(tagName);
  await page.getByRole('option', { name: new RegExp(`create tag “${tagName}”`) }).click();
  await expect(addTag.getByText(tagName, { exact: true })).toBeVisible();
  await addTag.getByRole('button', { name: 'add tag' }).click();
  await expect(addTag).toBeHidden();
  await expect(page.getByText(`Tag ${tagName} added to 3 members`)).toBeVisible();

  // Only the tagged members: clear the activity filter, filter by the new tag.
  await page.getByRole('button', { name: 'Activity Filter' }).click();
  await page.getByRole('dialog', { name: 'Activity Filter' }).getByRole('button', { name: 'Clear' }).click();
  await page.getByPlaceholder('Filter by Tag').click();
  await page.getByRole('option', { name: tagName }).click();
  await page.keyboard.press('Escape');
  await expect(bodyRows(page)).toHaveCount(3);
  const shown = await bodyRows(page).locator('td:nth-child(2) a').allTextContents();
  expect(shown.sort()).toEqual([...names].sort());

  // Remove the tag from one member: the view updates.
  await page.getByRole('button', { name: `Remove tag ${tagName} from ${names[0]}` }).click();
  await expect(page.getByText('Tag removed')).toBeVisible();
  await expect(bodyRows(page)).toHaveCount(2);

  // CSV of the filtered members: BOM, header, quoted UserName and Email.
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('button', { name: 'CSV' }).click(),
  ]);
  expect(download.suggestedFilename()).toBe('Members Data.csv');
  const csv = fs.readFileSync((await download.path())!, 'utf8');
  expect(csv.charCodeAt(0)).toBe(0xfeff);
  const lines = csv.slice(1).trimEnd().split('\r\n');
  expect(lines[0]).toBe('"UserName","Email"');
  const csvRows = lines.slice(1).map(parseCsvLine);
  expect(csvRows.map((r) => r[0]).sort()).toEqual(names.slice(1).sort());
  const emails = await bodyRows(page).locator('td:nth-child(4)').allTextContents();
  expect(csvRows.map((r) => r[1]).sort()).toEqual(emails.sort());

  // Open a member: left panel with the tag, Analytics then Actions.
  await table(page).getByRole('link', { name: names[1] }).click();
  await expect(page).toHaveURL(/\/dashboard\/members\/U[A-Z0-9]+$/);
  await expect(page.getByRole('heading', { name: names[1] })).toBeVisible();
  await expect(page.locator('#tags').getByText(tagName)).toBeVisible();
  await expect(page.getByRole('tab', { name: 'Analytics' })).toHaveAttribute('aria-selected', 'true');
  await expect(page.getByText('User Activity Per Channel')).toBeVisible();
  await expect(page.locator('[data-chart]').first()).toBeVisible();
  await page.getByRole('tab', { name: 'Actions' }).click();
  await expect(
    page.getByRole('table', { name: 'Actions' }).or(page.getByText('No actions in the last 7 days.')),
  ).toBeVisible();

  // Top-bar search: case-insensitive substring of a real name, the hit opens that member.
  const target = names[2]!;
  const search = page.getByRole('textbox', { name: 'Search members' });
  await search.fill(target.slice(1, 5).toUpperCase());
  await page
    .getByRole('option', { name: new RegExp(target) })
    .first()
    .click();
  await expect(page.getByRole('heading', { name: target })).toBeVisible();
  await search.fill('zzzz-nobody');
  await expect(page.getByText('no user found')).toBeVisible();

  // An unknown member id lands on /404.
  await page.goto('/dashboard/members/UNOBODY123');
  await expect(page).toHaveURL(/\/404$/);
  await expect(page.getByText('SORRY!')).toBeVisible();
});
