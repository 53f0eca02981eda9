import { expect, test } from './fixtures.ts';
import { logIn, outboxLink, uniqueEmail, verifiedAccount } from './helpers.ts';

test('sign up, verify through the outbox link, log in to the create-dashboard page, log out', async ({
  page,
  request,
}) => {
  const email = uniqueEmail('signup');
  const password = 'a-strong-password';

  await page.goto('/auth/signup');
  await page.getByLabel('Username').fill('Morgan Lee');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('combobox', { name: 'Country' }).click();
  await page.getByRole('option', { name: 'Portugal' }).click();
  await page.getByLabel('I agree to all Terms & Conditions').check();
  await page.getByRole('button', { name: /sign ?up/i }).click();
  await expect(page.getByText('Signup Successfull')).toBeVisible();
  await expect(page).toHaveURL(/\/auth\/login$/);

  // Not verified yet: the server's message is shown.
  await logIn(page, email, password);
  await expect(page.getByText(/verify your email/i).first()).toBeVisible();

  const link = await outboxLink(request, email, /verify/i);
  await page.goto(link.replace(/^https?:\/\/[^/]+/, ''));
  await expect(page.getByText('Your email is verified. You can log in now.')).toBeVisible();

  await logIn(page, email, password);
  await expect(page.getByText('login successfull')).toBeVisible();
  await expect(page).toHaveURL(/\/dashboard\/createdashboard$/);
  await expect(page.getByText('Create Workspace').first()).toBeVisible();
  const nav = page.getByRole('navigation');
  await expect(nav.getByText('Create Dashboard')).toBeVisible();
  await expect(nav.getByText('Analytics')).toHaveCount(0);

  await page.getByRole('button', { name: /Morgan Lee|profile|account/i }).click();
  await page.getByRole('menuitem', { name: 'Log Out' }).click();
  await expect(page).toHaveURL(/\/auth\/login$/);
  const stored = await page.evaluate(() => localStorage.getItem('flywheel.session'));
  expect(stored).toBeNull();
  await page.goto('/dashboard/home');
  await expect(page).toHaveURL(/\/auth\/login$/);
});

test('reset a forgotten password end to end', async ({ page, request }) => {
  const { email } = await verifiedAccount(request, 'reset');
  await page.goto('/auth/login');
  await page.getByText('Forgot password?').click();
  const dialog = page.getByRole('dialog');
  await dialog.getByLabel('Email').fill(email);
  await dialog.getByRole('button', { name: 'Submit' }).click();
  await expect(
    page.getByText('If an account exists for that email, we have sent a link to reset its password.'),
  ).toBeVisible();
  await expect(dialog).toBeHidden();

  const link = await outboxLink(request, email, /reset/i);
  await page.goto(link.replace(/^https?:\/\/[^/]+/, ''));
  await page.getByLabel('New password').fill('my-new-password-1');
  await page.getByLabel('Confirm password').fill('my-new-password-1');
  await page.getByRole('button', { name: /set|save|reset|change/i }).click();
  await expect(page).toHaveURL(/\/auth\/login$/);

  await logIn(page, email, 'my-new-password-1');
  await expect(page).toHaveURL(/\/dashboard\/createdashboard$/);
});

test('a wrong password shows the server message under the heading Attention', async ({ page, request }) => {
  const { email } = await verifiedAccount(request, 'wrong');
  await logIn(page, email, 'not-my-password');
  await expect(page.getByText('Attention')).toBeVisible();
  await expect(page.getByText('Incorrect email or password')).toBeVisible();
  await expect(page).toHaveURL(/\/auth\/login$/);
});

test('the session survives a reload, and an expired one lands on /auth/login', async ({ page, request }) => {
  const { email, password } = await verifiedAccount(request, 'restore');
  await logIn(page, email, password);
  await expect(page).toHaveURL(/\/dashboard\/createdashboard$/);
  await page.reload();
  await expect(page).toHaveURL(/\/dashboard\/createdashboard$/);
  await expect(page.getByText('Create Dashboard').first()).toBeVisible();

  await page.evaluate(() => {
    const s = JSON.parse(localStorage.getItem('flywheel.session')!);
    s.expiration = new Date(Date.now() - 60_000).toISOString();
    localStorage.setItem('flywheel.session', JSON.stringify(s));
  });
  await page.goto('/dashboard/home');
  await expect(page).toHaveURL(/\/auth\/login$/);
});

test('a token the server no longer accepts logs the user out', async ({ page, request }) => {
  const { email, password } = await verifiedAccount(request, 'revoked');
  await logIn(page, email, password);
  await expect(page).toHaveURL(/\/dashboard\/createdashboard$/);
  const token = await page.evaluate(
    () => JSON.parse(localStorage.getItem('flywheel.session')!).token as string,
  );
  // Revoke it behind the browser's back (as a logout elsewhere would).
  const res = await request.post('/api/v0/auth/logout', {
    headers: { authorization: `Bearer ${token}` },
    data: {},
  });
  expect(res.status()).toBe(200);
  await page.reload();
  await expect(page).toHaveURL(/\/auth\/login$/);
});
