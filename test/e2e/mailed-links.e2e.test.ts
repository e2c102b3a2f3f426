// Forgotten passwords, sign-up and e-mail changes in a real browser against the built server
// (issue 38), on SQLite and (with TEST_DATABASE_URL) PostgreSQL, the mail received by a real SMTP
// server on loopback: sign-in page → forgot → the mailed link → a new password → signed in with
// it; sign-up → the mailed confirmation → signed in to a workspace of one's own → the address
// changed from the account page, confirmed by its link. Screenshots at 1440 and 375 px.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { linkTokenOf, startMailCatcher, type MailCatcher } from '../helpers/mail-catcher.js'
import { allowingConsoleErrors, e2eDatabases, hasChromium, screenshot, screenshotAtEveryWidth, useBrowser, withDashboard } from './harness.js'

describe.skipIf(!hasChromium)('mailed links in a browser', () => {
  const { browser, folder } = useBrowser()
  const databases = e2eDatabases(folder)
  let mail: MailCatcher
  beforeAll(async () => {
    mail = await startMailCatcher()
  })
  afterAll(async () => {
    await mail?.close()
  })

  it.each(databases)('resets a forgotten password from the mailed link and signs in with the new one ($name)', async ({ name, create }) => {
    await withDashboard(browser(), await create(), async (d) => {
      const app = `${d.publicUrl}/app`
      const page = await (await d.newContext()).newPage()
      await screenshotAtEveryWidth(page, name, 'signin-links', `${app}/signin`, (p) => p.getByRole('link', { name: 'Forgot your password?' }).waitFor())
      // Sign-up is closed here: the sign-in page does not offer it.
      expect(await page.getByRole('link', { name: 'Create an account' }).count()).toBe(0)
      await page.getByRole('link', { name: 'Forgot your password?' }).click()
      await page.getByRole('heading', { name: 'Forgot your password?' }).waitFor()
      await screenshotAtEveryWidth(page, name, 'forgot-password', `${app}/forgot-password`, (p) => p.getByRole('heading', { name: 'Forgot your password?' }).waitFor())
      // Both walks sign in as admin@localhost: this walk's mail is the next one to arrive.
      const before = mail.mailsTo('admin@localhost').length
      await page.getByLabel('E-mail or username').fill(d.credentials.username)
      await page.getByRole('button', { name: 'Send the link' }).click()
      await page.getByRole('status').filter({ hasText: 'If this username or address has an account' }).waitFor()
      await screenshot(page, name, 'forgot-password-sent')

      const token = linkTokenOf(await mail.mailTo('admin@localhost', before + 1), 'reset-password')
      const resetUrl = `${app}/reset-password#token=${token}`
      await screenshotAtEveryWidth(page, name, 'reset-password', resetUrl, (p) => p.getByRole('heading', { name: 'Choose a new password' }).waitFor())
      await page.getByLabel('New password', { exact: true }).fill('a brand new password')
      await page.getByLabel('Repeat the new password').fill('a brand new password')
      await page.getByRole('button', { name: 'Set the new password' }).click()
      await page.getByText('Your password has been changed. Sign in with the new one.').waitFor()
      await page.getByLabel('E-mail or username').fill(d.credentials.username)
      await page.getByLabel('Password').fill('a brand new password')
      await page.getByLabel('Password').press('Enter')
      await page.getByRole('heading', { name: 'Overview' }).waitFor()

      // The link again: spent, and the page says what to do.
      const other = await (await d.newContext()).newPage()
      await other.goto(resetUrl)
      await other.getByLabel('New password', { exact: true }).fill('a third password')
      await other.getByLabel('Repeat the new password').fill('a third password')
      await allowingConsoleErrors(d.errors, /410/, async () => {
        await other.getByRole('button', { name: 'Set the new password' }).click()
        await other.getByText('This link has expired or has already been used. Ask for a new one.').waitFor()
      })
      await other.getByRole('link', { name: 'Ask for a new link' }).waitFor()
    }, { SMTP_URL: mail.url })
  })

  it.each(databases)('signs up, confirms from the mail, and changes the address from the account page ($name)', async ({ name, create }) => {
    await withDashboard(browser(), await create(), async (d) => {
      const app = `${d.publicUrl}/app`
      const page = await (await d.newContext()).newPage()
      const address = `walker-${name}@example.com`
      await page.goto(`${app}/signin`)
      await page.getByRole('link', { name: 'Create an account' }).click()
      await page.getByRole('heading', { name: 'Create an account' }).waitFor()
      await screenshotAtEveryWidth(page, name, 'sign-up', `${app}/sign-up`, (p) => p.getByRole('heading', { name: 'Create an account' }).waitFor())
      await page.getByLabel('E-mail address').fill(address)
      await page.getByLabel('Password').fill('a walker password')
      await page.getByRole('button', { name: 'Create the account' }).click()
      await page.getByRole('status').filter({ hasText: 'Check your inbox' }).waitFor()
      await screenshot(page, name, 'sign-up-sent')

      const token = linkTokenOf(await mail.mailTo(address), 'confirm-sign-up')
      await screenshotAtEveryWidth(page, name, 'confirm-sign-up', `${app}/confirm-sign-up#token=${token}`, (p) => p.getByRole('heading', { name: 'Confirm your account' }).waitFor())
      await page.getByRole('button', { name: 'Confirm and sign in' }).click()
      await page.getByRole('heading', { name: 'Overview' }).waitFor()

      // The address, changed from the account page with the current password, once its link is opened.
      const moved = `moved-${name}@example.com`
      await page.goto(`${app}/account`)
      const form = page.getByRole('form', { name: 'Change your e-mail address' })
      await form.getByLabel('New e-mail address').fill(moved)
      await form.getByLabel('Current password').fill('a walker password')
      await form.getByRole('button', { name: 'Send the confirmation link' }).click()
      await page.getByRole('status').filter({ hasText: `We have sent a link to ${moved}` }).waitFor()
      await screenshot(page, name, 'account-email-sent')
      const changeToken = linkTokenOf(await mail.mailTo(moved), 'confirm-email')
      await screenshotAtEveryWidth(page, name, 'confirm-email', `${app}/confirm-email#token=${changeToken}`, (p) => p.getByRole('heading', { name: 'Confirm your new address' }).waitFor())
      await page.getByRole('button', { name: 'Confirm the new address' }).click()
      await page.getByRole('status').filter({ hasText: `Your sign-in address is now ${moved}.` }).waitFor()
      const notice = await mail.mailTo(address, 2)
      expect(notice.body).toContain('Your Linkwell sign-in address was changed')
      await screenshotAtEveryWidth(page, name, 'account-profile', `${app}/account`, (p) => p.getByText(`(${moved})`).waitFor())
    }, { SMTP_URL: mail.url, SIGNUP: 'open' })
  })
})
