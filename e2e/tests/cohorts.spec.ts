import fs from 'node:fs';
import { expect, test } from './fixtures.ts';
import { axeViolations, signInToDemo } from './helpers.ts';

test('analytics: retention by join cohort on the demo (weekly and monthly, CSV, link to Members), axe clean', async ({
  page,
  request,
}) => {
  test.setTimeout(150_000);
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  const { headers, teamId } = await signInToDemo(page, request);
  const api = (await (
    await request.get(`/api/v0/analytics/cohorts/${teamId}?period=week`, { headers })
  ).json()) as { data: { cohorts: { start: string; end: string; members: number }[]; today: string } };

  await page.goto('/dashboard/analytics#retention');
  const card = page.getByRole('region', { name: 'Retention by join cohort', exact: true });
  const table = card.getByRole('table', { name: 'Retention by join cohort' });
  await expect(table).toBeVisible({ timeout: 30_000 });
  // One row per cohort of the API's answer (12 weeks), each with its size.
  await expect(table.getByRole('row')).toHaveCount(1 + api.data.cohorts.length);
  const withMembers = api.data.cohorts.filter((c) => c.members > 0);
  expect(withMembers.length).toBeGreaterThan(0);
  const first = withMembers[0]!;
  const row = table
    .getByRole('row')
    .filter({ has: page.getByRole('rowheader', { name: `Week of ${first.start}` }) });
  await expect(row.getByRole('cell').first()).toHaveText(String(first.members));
  await expect(row.getByRole('cell').nth(1)).toHaveText(/^\d+(\.\d)?%\d+\/\d+$/);

  await page.waitForLoadState('networkidle');
  expect(await axeViolations(page, 'section[aria-label="Retention by join cohort"]')).toEqual([]);

  // CSV of the grid.
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    card.getByRole('button', { name: 'Download Retention CSV' }).click(),
  ]);
  const lines = fs
    .readFileSync((await download.path())!, 'utf8')
    .slice(1)
    .trimEnd()
    .split('\r\n');
  expect(lines[0]).toMatch(/^"Cohort","Start","End","Members","Week 0 %"/);
  expect(lines).toHaveLength(1 + api.data.cohorts.length);

  // Monthly.
  await card.getByRole('radio', { name: 'Monthly' }).click();
  await expect(table.getByRole('rowheader').last()).toHaveText(
    new Date(`${api.data.today}T00:00:00Z`).toLocaleString('en-US', {
      month: 'long',
      year: 'numeric',
      timeZone: 'UTC',
    }),
  );
  expect(await axeViolations(page, 'section[aria-label="Retention by join cohort"]')).toEqual([]);

  // A cohort's link opens Members filtered to its join window: as many members as the cohort holds.
  await card.getByRole('radio', { name: 'Weekly' }).click();
  await table.getByRole('link', { name: `Week of ${first.start}` }).click();
  await expect(page).toHaveURL(new RegExp(`/dashboard/members\\?join_from=${first.start}&join_to=`));
  await expect(page.getByRole('button', { name: 'Join Filter' })).toHaveAttribute('data-variant', 'filled');
  await expect(page.getByText(new RegExp(`\\b${first.members} members?\\b`)).first()).toBeVisible({
    timeout: 20_000,
  });
  expect(errors).toEqual([]);
});
