import { expect, test } from './fixtures.ts';
import { axeViolations, demoCredentials, logIn, membersForWindow, selectFirstMembers } from './helpers.ts';

test('audit log: a message sent in the UI is on the audit log page, with the login; the page is axe clean', async ({
  page,
  request,
}) => {
  test.setTimeout(120_000);
  const demo = await demoCredentials(request);
  await logIn(page, demo.email, demo.password);
  await expect(page).toHaveURL(/\/dashboard\/home$/);

  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Members' }).click();
  await expect(page).toHaveURL(/\/dashboard\/members$/);
  await membersForWindow(page, 'Last 90 days', 2);
  await selectFirstMembers(page, 2);
  await page.getByRole('button', { name: 'Send Message' }).click();
  const choose = page.getByRole('dialog', { name: 'Choose Sender' });
  await choose.getByRole('radio', { name: 'Bot' }).check();
  await choose.getByRole('button', { name: 'Next' }).click();
  const send = page.getByRole('dialog', { name: 'Send Message' });
  const text = `Audit e2e ${Date.now().toString(36)}`;
  await send.getByRole('textbox', { name: 'Message' }).click();
  await page.keyboard.type(text);
  await send.getByRole('button', { name: 'Send', exact: true }).click();
  await expect(send).toBeHidden({ timeout: 15_000 });

  await page.goto('/dashboard/settings/audit-log');
  await expect(page.getByRole('heading', { level: 2, name: 'Audit log' })).toBeVisible({ timeout: 30_000 });
  const table = page.getByRole('table', { name: 'Audit log' });
  const sent = table.locator('tbody tr').filter({ hasText: text });
  await expect(sent).toHaveCount(1, { timeout: 15_000 });
  await expect(sent).toContainText(demo.email);
  await expect(sent).toContainText(/send\./);
  await expect(sent).toContainText(/receipt_id=\d+/);
  await expect(table.locator('tbody tr[data-action="auth.login"]').first()).toBeVisible();

  // The kind filter keeps only that kind.
  await page.getByRole('combobox', { name: 'Action' }).click();
  await page.getByRole('option', { name: 'auth.login' }).click();
  await expect(table.locator('tbody tr').filter({ hasText: text })).toHaveCount(0, { timeout: 15_000 });
  await expect(table.locator('tbody tr[data-action="auth.login"]').first()).toBeVisible();

  await expect(page.locator('.mantine-LoadingOverlay-root')).toHaveCount(0, { timeout: 30_000 });
  expect(await axeViolations(page)).toEqual([]);
});
