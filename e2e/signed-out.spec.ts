import { expect, test } from './support/server';

// A signed-out visitor's first page: asking who is signed in is not an error, so nothing may be logged.
test('a signed-out visit to the console logs no error in the browser console', async ({ page }) => {
  const errors: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(message.text());
  });
  page.on('pageerror', (error) => errors.push(error.message));

  await page.goto('/');
  await expect(page.getByRole('heading', { name: 'Sign in' })).toBeVisible();
  await page.goto('/bot/manage');
  await expect(page).toHaveURL(/\/login\?next=%2Fbot%2Fmanage$/);
  await expect(page.getByRole('heading', { name: 'Sign in' })).toBeVisible();
  await page.goto('/register');
  await expect(page.getByRole('heading', { name: 'Register' })).toBeVisible();
  expect(errors).toEqual([]);
});
