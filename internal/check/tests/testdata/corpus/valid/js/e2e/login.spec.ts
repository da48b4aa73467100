import { expect, test } from '@playwright/test'

test.describe('login', () => {
  test.beforeEach(async ({ page }) => {
    await page.goto('/login')
  })

  test('signs in with a password', async ({ page }) => {
    await page.getByLabel('Email').fill('ada@example.com')
    await page.getByLabel('Password').fill('correct horse')
    await page.getByRole('button', { name: 'Sign in' }).click()
    await expect(page).toHaveURL(/dashboard/)
  })

  test('shows an error on a wrong password', async ({ page, browserName }) => {
    test.skip(browserName === 'webkit', 'the error toast is not announced on webkit')
    await page.getByRole('button', { name: 'Sign in' }).click()
    await expect(page.getByRole('alert')).toHaveText("Email or password isn't right")
  })
})
