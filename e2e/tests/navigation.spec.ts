import { expect, test } from './fixtures.ts';

test('an unknown path shows the not-found page with a way home', async ({ page }) => {
  await page.goto('/no/such/page');
  await expect(page.getByText('SORRY!')).toBeVisible();
  await expect(page.getByText("The page you're looking for was not found.")).toBeVisible();
  await expect(page.getByRole('link', { name: 'Back to home' })).toBeVisible();
  await page.goto('/404');
  await expect(page.getByText('SORRY!')).toBeVisible();
});

test('signed-out visitors are sent to /auth/login, and the login page loads no dashboard code', async ({
  page,
}) => {
  const scripts: string[] = [];
  page.on('request', (r) => {
    if (r.resourceType() === 'script') scripts.push(r.url());
  });
  await page.goto('/dashboard/analytics');
  await expect(page).toHaveURL(/\/auth\/login$/);
  await expect(page.getByText('Keep me signed in')).toBeVisible();
  await expect(page.getByText('Forgot password?')).toBeVisible();
  expect(scripts.some((s) => /Dashboard|Analytics|Home|chart|tiptap/i.test(s))).toBe(false);
});
