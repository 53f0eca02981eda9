import fs from 'node:fs';
import type { Locator, Page } from '@playwright/test';
import { expect, test } from './fixtures.ts';
import { axeViolations, demoCredentials, logIn } from './helpers.ts';

/** Where the screenshots of the new screens go when SCREENSHOTS is set (for a look, not for the test). */
const shots = process.env.SCREENSHOTS;
const shoot = async (what: Page | Locator, name: string) => {
  if (shots)
    await what.screenshot({ path: `${shots}/${name}.png`, ...('goto' in what ? { fullPage: true } : {}) });
};

/** axe-core over the page: no violation of WCAG 2 A/AA rules. */
async function expectAccessible(page: Page, what: string) {
  expect(await axeViolations(page), `axe violations on ${what}`).toEqual([]);
}

/** Analytics' mode switch (a segmented control: each choice is a label holding its radio). */
const openCreationMode = (page: Page) =>
  page
    .locator('label')
    .filter({ hasText: /^Bucket creation$/ })
    .click();

test('buckets: the table in Analytics, create a bucket, run it, export it, tag all its members, delete it', async ({
  page,
  request,
}) => {
  test.setTimeout(150_000);
  const demo = await demoCredentials(request);
  await logIn(page, demo.email, demo.password);
  await expect(page).toHaveURL(/\/dashboard\/home$/);
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Analytics' }).click();
  await expect(page).toHaveURL(/\/dashboard\/analytics$/);

  // Normal mode: the bucket table counts its rows; Split by Date asks for rows per day and channel.
  const card = page.getByRole('region', { name: 'Bucket Table' });
  await card.scrollIntoViewIfNeeded();
  await expect(card.getByText(/^\d+ rows?$/)).toBeVisible({ timeout: 30_000 });
  await card.getByRole('combobox', { name: 'Bucket Table time filter' }).click();
  await page.getByRole('option', { name: 'Last 14 days' }).click();
  await card.getByRole('checkbox', { name: 'Split by Date' }).check();
  await expect(card.getByRole('table', { name: 'Bucket Table' }).locator('tbody tr').first()).toContainText(
    /^\d{4}-\d{2}-\d{2}/,
  );
  await card.getByRole('button', { name: 'Join Filter' }).click();
  await page.getByRole('menuitem', { name: 'Member Joined' }).click();
  await expect(card.getByRole('button', { name: 'Member Joined' })).toHaveAttribute('data-variant', 'filled');
  await card.scrollIntoViewIfNeeded();
  await shoot(card, 'bucket-table');
  await expectAccessible(page, 'Analytics normal mode');
  await card.getByRole('button', { name: 'Reset' }).click();
  await expect(card.getByRole('button', { name: 'Join Filter' })).toHaveAttribute('data-variant', 'default');
  await expect(card.getByRole('checkbox', { name: 'Split by Date' })).not.toBeChecked();

  // Bucket creation mode: the product's texts first, then a bucket over every channel, Messages > 0 in 14 days.
  await openCreationMode(page);
  await page.getByRole('button', { name: 'Create', exact: true }).click();
  await expect(page.getByText("Bucket Name can't be empty")).toBeVisible();
  await expect(page.getByText('Select at least one channel')).toBeVisible();
  const name = `E2E bucket ${Date.now().toString(36)}`;
  await page.getByPlaceholder('Name...').fill(name);
  await page.getByRole('checkbox', { name: 'Select all channels' }).check();
  await page.getByRole('combobox', { name: 'Activity date filter' }).click();
  await page.getByRole('option', { name: 'Last 14 days' }).click();
  await page.getByRole('combobox', { name: 'Messages operator' }).click();
  await page.getByRole('option', { name: '>', exact: true }).click();
  await page.getByRole('textbox', { name: 'Messages count' }).fill('0');
  await page.getByRole('button', { name: 'Create', exact: true }).click();
  await expect(page.getByText(`Bucket '${name}' created`)).toBeVisible();
  const table = page.getByRole('table', { name: 'BucketTable' });
  const row = table.locator('tbody tr', { hasText: name });
  await expect(row.getByText('Not-Executed')).toBeVisible();
  await shoot(page, 'bucket-creation');
  await expectAccessible(page, 'bucket creation mode');

  // Run: last_execute becomes a time and the toast says how many members it found.
  await row.getByRole('button', { name: `Run ${name}` }).click();
  const ran = page.getByText(new RegExp(`Bucket '${name}' executed: (\\d+) members?`));
  await expect(ran).toBeVisible({ timeout: 30_000 });
  const count = Number((await ran.textContent())!.match(/executed: (\d+)/)![1]);
  expect(count).toBeGreaterThan(0);
  await expect(row.getByText('Not-Executed')).toHaveCount(0);
  await expect(row.getByRole('cell', { name: count.toLocaleString('en-US') })).toBeVisible();

  // Export the last run: BOM, the product's header, one line per member.
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    row.getByRole('button', { name: `Download ${name} CSV` }).click(),
  ]);
  expect(download.suggestedFilename()).toBe(`${name}.csv`);
  const csv = fs.readFileSync((await download.path())!, 'utf8');
  expect(csv.charCodeAt(0)).toBe(0xfeff);
  const lines = csv.slice(1).trimEnd().split('\r\n');
  expect(lines[0]).toBe(
    '"Date of Data","Member Name","Member Email ID","Channel Name","Messages","Reactions","Replies","Activity"',
  );
  expect(lines).toHaveLength(count + 1);
  expect(lines.slice(1).every((l) => /,[1-9]\d*,\d+,\d+,\d+$/.test(l))).toBe(true);

  // Tag every member of the bucket with a new tag, made in the popup; the Members page's tag filter then shows
  // exactly them.
  const tagName = `bucket${Date.now().toString(36)}`;
  await row.getByRole('button', { name: `Add Tag to ${name}` }).click();
  const dialog = page.getByRole('dialog', { name: 'Add Tag to bucket members' });
  await dialog.getByRole('combobox', { name: 'Tags' }).fill(tagName);
  await page.getByRole('option', { name: new RegExp(`create tag “${tagName}”`) }).click();
  await expect(dialog.getByText(tagName, { exact: true })).toBeVisible();
  await shoot(dialog, 'bucket-add-tag');
  expect(await axeViolations(page, '[role="dialog"]')).toEqual([]);
  await dialog.getByRole('button', { name: 'Add Tag' }).click();
  await expect(page.getByText(`Tag ${tagName} added to ${count} member`)).toBeVisible();

  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Members' }).click();
  await page.getByPlaceholder('Filter by Tag').click();
  await page.getByRole('option', { name: tagName }).click();
  await page.keyboard.press('Escape');
  await expect(page.getByText(new RegExp(`^${count} members?$`))).toBeVisible({ timeout: 20_000 });

  // Delete: the row goes.
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Analytics' }).click();
  await openCreationMode(page);
  await row.getByRole('button', { name: `Delete ${name}` }).click();
  await expect(page.getByText(`Bucket '${name}' deleted`)).toBeVisible();
  await expect(row).toHaveCount(0);
});
