// Single sign-on in a real browser against the built server, on SQLite and (with
// TEST_DATABASE_URL) PostgreSQL (issue 38, ADR 033): the administrator maps a group of the
// provider to a role on the members page and sees the providers page; a person of the provider
// signs in through "Sign in with …" and the provider's own login form (oidc-provider on loopback)
// and lands on the overview of the workspace their group gives them; a forged callback meets the
// page that says what to do. Screenshots at 1440 and 375 px.
import { describe, expect, it } from 'vitest'
import { startIdentityProvider } from '../helpers/identity-provider.js'
import { e2eDatabases, hasChromium, screenshotAtEveryWidth, useBrowser, withDashboard } from './harness.js'

describe.skipIf(!hasChromium)('single sign-on in a browser', () => {
  const { browser, folder } = useBrowser()
  const databases = e2eDatabases(folder)

  it.each(databases)('signs in through the provider\'s login page with the role its group maps ($name)', async ({ name, create }) => {
    // The server's port is drawn by withDashboard: the provider learns its redirect URI there.
    const idp = await startIdentityProvider('http://127.0.0.1/not-known-yet')
    try {
      const env = { OIDC_ISSUER: idp.issuer, OIDC_CLIENT_ID: idp.clientId, OIDC_CLIENT_SECRET: idp.clientSecret, OIDC_ALLOWED_DOMAINS: 'corp.test', OIDC_ALLOW_HTTP: '1', OIDC_LABEL: 'Corp ID' }
      await withDashboard(browser(), await create(), async (d) => {
        idp.redirectUri = `${d.publicUrl}/api/auth/oidc/callback`
        idp.accounts.set('ada', { sub: 'ada', password: 'ada at the provider', email: 'ada@corp.test', email_verified: true, groups: ['team'] })
        const app = `${d.publicUrl}/app`

        // The administrator maps the provider's group to a role.
        const admin = await d.signedInPage()
        await admin.goto(`${app}/members`)
        await admin.getByRole('heading', { name: 'Single sign-on' }).waitFor()
        await admin.getByLabel('Groups and roles').fill('team: editor')
        await admin.getByRole('button', { name: 'Save single sign-on' }).click()
        await admin.getByText('Saved.').waitFor()
        await screenshotAtEveryWidth(admin, name, 'members-sso', `${app}/members`, (page) => page.getByLabel('Groups and roles').waitFor())
        await screenshotAtEveryWidth(admin, name, 'admin-sso', `${app}/admin/sso`, (page) => page.getByRole('heading', { name: 'Providers' }).waitFor())
        expect(await admin.getByText(`${d.publicUrl}/api/auth/oidc/callback`).count()).toBe(1)

        // Ada signs in through the provider.
        const page = await (await d.newContext()).newPage()
        const button = page.getByRole('link', { name: 'Sign in with Corp ID' })
        await screenshotAtEveryWidth(page, name, 'signin-sso', `${app}/signin`, () => button.waitFor())
        await button.click()
        await page.getByRole('heading', { name: 'Test identity provider' }).waitFor()
        await page.getByLabel('Login').fill('ada@corp.test')
        await page.getByLabel('Password').fill('ada at the provider')
        await page.getByRole('button', { name: 'Continue' }).click()
        await page.getByRole('heading', { name: 'Overview' }).waitFor()
        const signedIn = await page.evaluate(async () => (await fetch('/api/workspaces')).json()) as { data: { workspaces: Array<{ name: string; role: string; current: boolean }> } }
        expect(signedIn.data.workspaces).toEqual([expect.objectContaining({ role: 'editor', current: true })])

        // A callback nobody started, in a browser signed in nowhere: back on the sign-in page, which says what to do.
        const stranger = await (await d.newContext()).newPage()
        const refused = stranger.getByRole('alert')
        await screenshotAtEveryWidth(stranger, name, 'sso-refused', `${d.publicUrl}/api/auth/oidc/callback?code=forged&state=forged`, () => refused.waitFor())
        expect(await refused.textContent()).toContain('This sign-in link is not valid any more.')
        expect(new URL(stranger.url()).pathname).toBe('/app/signin')
        await stranger.getByRole('link', { name: 'Sign in with Corp ID' }).waitFor()
      }, env)
    } finally {
      await idp.close()
    }
  })
})
