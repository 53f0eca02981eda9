import type { Page } from '@playwright/test';
import { expect, test } from './fixtures.ts';
import { demoCredentials, logIn } from './helpers.ts';

const membersRows = (page: Page) => page.getByRole('table', { name: 'Members Data' }).locator('tbody tr');

test('sending: DM 3 checked members as Bot, the receipt reaches Processed with 3 successes', async ({
  page,
  request,
}) => {
  test.setTimeout(120_000);
  const demo = await demoCredentials(request);
  await logIn(page, demo.email, demo.password);
  await expect(page).toHaveURL(/\/dashboard\/home$/);

  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Members' }).click();
  await expect(page).toHaveURL(/\/dashboard\/members$/);
  await page.getByRole('combobox', { name: 'Time filter' }).click();
  await page.getByRole('option', { name: 'Last 90 days' }).click();
  await expect(membersRows(page).nth(2)).toBeVisible({ timeout: 30_000 });
  for (let i = 0; i < 3; i++) await membersRows(page).nth(i).getByRole('checkbox').check();

  await page.getByRole('button', { name: 'Send Message' }).click();
  const choose = page.getByRole('dialog', { name: 'Choose Sender' });
  await choose.getByRole('radio', { name: 'Bot' }).check();
  await choose.getByRole('button', { name: 'Next' }).click();
  const send = page.getByRole('dialog', { name: 'Send Message' });
  await expect(send.getByText('To 3 selected members')).toBeVisible();
  const text = `Hello from e2e ${Date.now().toString(36)}`;
  await send.getByRole('textbox', { name: 'Message' }).click();
  await page.keyboard.type(text);
  await send.getByRole('button', { name: 'Send', exact: true }).click();
  await expect(send).toBeHidden({ timeout: 15_000 });

  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Receipts' }).click();
  await expect(page).toHaveURL(/\/dashboard\/receipts$/);
  const row = page
    .getByRole('table', { name: 'Receipts Data' })
    .locator('tbody tr')
    .filter({ hasText: text });
  await expect(row).toHaveCount(1, { timeout: 15_000 });
  // The page polls while the send runs: the same row reaches Processed.
  await expect(row.locator('td').nth(5)).toHaveText('Processed', { timeout: 60_000 });
  await expect(row.locator('td').nth(2)).toHaveText('3');
  await expect(row.locator('td').nth(3)).toHaveText('3');
  await expect(row.locator('td').nth(4)).toHaveText('0');
});
