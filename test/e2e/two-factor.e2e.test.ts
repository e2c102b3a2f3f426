// Two-factor sign-in in a real browser against the built server, on SQLite and (with
// TEST_DATABASE_URL) PostgreSQL (issue 20, ADR 025): enrolment on the Security page (QR code, key
// for typing, one code), recovery codes shown once; signing out and in again with a code computed
// here with otplib, then with a recovery code, which is refused the second time. Screenshots at
// 1440 and 375 px.
import { codeOf } from '../helpers/totp.js'
import type { Page } from 'playwright-core'
import { describe, expect, it } from 'vitest'
import { allowingConsoleErrors, e2eDatabases, hasChromium, screenshot, screenshotAtEveryWidth, useBrowser, WIDTHS, withDashboard } from './harness.js'

/** A screenshot of the page as it is, at every width (a page that a reload would lose). */
async function screenshotAsItIs(page: Page, prefix: string, name: string): Promise<void> {
  for (const size of WIDTHS) {
    await page.setViewportSize(size)
    await screenshot(page, prefix, name)
    expect(await page.evaluate('document.documentElement.scrollWidth'), `${name} at ${size.width} px is wider than the screen`).toBeLessThanOrEqual(size.width)
  }
  await page.setViewportSize(WIDTHS[0]!)
}

describe.skipIf(!hasChromium)('two-factor sign-in in a browser', () => {
  const { browser, folder } = useBrowser()
  const databases = e2eDatabases(folder)

  it.each(databases)('enrols, then signs in with a code and with a recovery code, which works once ($name)', async ({ name, create }) => {
    await withDashboard(browser(), await create(), async (d) => {
      const page = await d.signedInPage()
      const app = `${d.publicUrl}/app`

      await page.getByRole('link', { name: 'Security' }).click()
      await page.getByRole('heading', { name: 'Security' }).waitFor()
      await page.getByRole('button', { name: 'Set up two-factor sign-in' }).click()
      await page.getByRole('img', { name: 'QR code to add Linkwell to your authenticator app' }).waitFor()
      const secret = (await page.getByLabel('Cannot scan? Enter this key in the app instead:').textContent())!.replace(/\s/g, '')
      expect(secret).toMatch(/^[A-Z2-7]{32}$/)
      await screenshotAsItIs(page, name, 'security-enrol')

      // A wrong code is refused beside the field.
      await allowingConsoleErrors(d.errors, /400/, async () => {
        await page.getByLabel('Code from your app').fill(String((Number(codeOf(secret)) + 500_000) % 1_000_000).padStart(6, '0'))
        await page.getByRole('button', { name: 'Turn on' }).click()
        await page.getByText('The code is incorrect. Check your authenticator app and the time of this device.').waitFor()
      })
      await page.getByLabel('Code from your app').fill(codeOf(secret))
      await page.getByRole('button', { name: 'Turn on' }).click()
      const list = page.getByRole('list', { name: 'Recovery codes' })
      await list.waitFor()
      const codes = (await list.getByRole('listitem').allTextContents()).map((code) => code.trim())
      expect(codes).toHaveLength(10)
      await page.getByRole('button', { name: 'Download codes' }).waitFor()
      const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Download codes' }).click()])
      expect(download.suggestedFilename()).toBe('linkwell-recovery-codes.txt')
      await screenshotAsItIs(page, name, 'security-recovery-codes')
      await page.getByRole('button', { name: 'I have saved them' }).click()
      await page.getByText('You have 10 unused recovery codes.').waitFor()
      await screenshotAtEveryWidth(page, name, 'security-on', `${app}/security`, (p) => p.getByText('You have 10 unused recovery codes.').waitFor())

      async function signInAgain() {
        await page.getByRole('button', { name: 'Sign out' }).click()
        await page.getByRole('heading', { name: 'Sign in' }).waitFor()
        await page.getByLabel('E-mail or username').fill(d.credentials.username)
        await page.getByLabel('Password').fill(d.credentials.password)
        await page.getByLabel('Password').press('Enter')
        await page.getByRole('heading', { name: 'Enter your code' }).waitFor()
      }

      // With the code of the next step (the enrolment used this one's).
      await signInAgain()
      await screenshotAsItIs(page, name, 'signin-code')
      await page.getByRole('textbox', { name: 'Code' }).fill(codeOf(secret, 1))
      await page.getByRole('button', { name: 'Verify' }).click()
      await page.getByRole('heading', { name: 'Overview' }).waitFor()

      // With a recovery code.
      await signInAgain()
      await page.getByRole('textbox', { name: 'Code' }).fill(codes[0]!)
      await page.getByRole('button', { name: 'Verify' }).click()
      await page.getByRole('heading', { name: 'Overview' }).waitFor()

      // The same recovery code again: refused.
      await signInAgain()
      await allowingConsoleErrors(d.errors, /400/, async () => {
        await page.getByRole('textbox', { name: 'Code' }).fill(codes[0]!)
        await page.getByRole('button', { name: 'Verify' }).click()
        await page.getByText('The code is incorrect or has already been used.').waitFor()
      })
      await page.getByRole('textbox', { name: 'Code' }).fill(codes[1]!)
      await page.getByRole('button', { name: 'Verify' }).click()
      await page.getByRole('heading', { name: 'Overview' }).waitFor()
      await page.goto(`${app}/security`)
      await page.getByText('You have 8 unused recovery codes.').waitFor()
    })
  }, 180_000)
})
