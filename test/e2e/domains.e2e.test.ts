// The branded domain page in a real browser (issue 43), against the built server holding its own
// certificates (ACME_EMAIL, Debian's pebble and pebble-challtestsrv on loopback): add a domain,
// land on its page with the TXT record to create, be told what the last check found, publish the
// record, check now, see it verified and its certificate arrive. Screenshots at 1440 and 375 px.
import type { Page } from 'playwright-core'
import { describe, expect, it } from 'vitest'
import { hasPebble, useAcmeServers } from '../helpers/acme-servers.js'
import { freePort } from '../helpers/server-process.js'
import { allowingConsoleErrors, e2eDatabases, hasChromium, screenshotAtEveryWidth, useBrowser, withDashboard } from './harness.js'

const nav = (page: Page, name: string) => page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name })

describe.skipIf(!hasChromium || !hasPebble)('the branded domain page in a browser', () => {
  const { browser, folder } = useBrowser()
  const databases = e2eDatabases(folder)
  const servers = useAcmeServers()

  it.each(databases)('adds a domain, shows the record to create and what the check found, then verified and https ($name)', async ({ name, create }) => {
    const host = `go-${name}.walk.test`
    const [dns, acme, httpPort] = [servers.dns(), servers.acme(), servers.httpPort()]
    const env = {
      ACME_EMAIL: 'ops@walk.test',
      ACME_DIRECTORY_URL: acme.directoryUrl,
      ACME_CHECK_SECONDS: '1',
      NODE_EXTRA_CA_CERTS: acme.tlsCertificateFile,
      DNS_SERVERS: dns.server,
      HTTP_PORT: String(httpPort),
      HTTPS_PORT: String(await freePort()),
      DOMAIN_VERIFICATION: 'txt',
    }
    await withDashboard(browser(), await create(), async (d) => {
      const page = await d.signedInPage()
      await nav(page, 'Branded domains').click()
      await page.getByRole('heading', { name: 'Branded domains' }).waitFor()
      await page.getByRole('link', { name: '+ Add domain' }).first().click()
      await page.getByRole('textbox', { name: 'Domain' }).fill(`https://${host}`)
      await page.getByRole('button', { name: 'Add domain' }).click()

      // Next step on the domain's own page: the record to create.
      await page.getByRole('heading', { name: host }).waitFor()
      await page.getByText(`${host} has been added. Next: create its TXT record.`).waitFor()
      const record = page.getByRole('table', { name: 'TXT record to create' })
      await expect.poll(() => record.getByRole('cell').nth(1).textContent()).toContain(`_linkwell.${host}`)
      const value = (await record.locator('td[data-label="Value"] code').textContent())!.trim()
      expect(value).toMatch(/^[A-Za-z0-9_-]{24}$/)
      await page.getByText('Waiting for the TXT record').waitFor()
      await page.getByRole('button', { name: 'Check now' }).click()
      await page.getByText(`no TXT record found at _linkwell.${host}`).waitFor()
      const url = page.url()
      await screenshotAtEveryWidth(page, name, 'domain-pending', url, (p) => p.getByText(`no TXT record found at _linkwell.${host}`).waitFor())

      await dns.setTxt(`_linkwell.${host}`, value)
      await page.getByRole('button', { name: 'Check now' }).click()
      await page.getByText('Verified', { exact: true }).waitFor()
      await page.getByText(/by its TXT record on/).waitFor()
      // The certificate arrives by itself; the page asks again while it is on its way.
      await page.getByText(/^HTTPS active until /).waitFor({ timeout: 60_000 })
      await screenshotAtEveryWidth(page, name, 'domain-verified', url, (p) => p.getByText(/^HTTPS active until /).waitFor())

      // The list says it too, and leads to the page.
      await nav(page, 'Branded domains').click()
      const row = page.getByRole('row', { name: new RegExp(host) })
      await row.getByText('Verified').waitFor()
      await row.getByText('HTTPS').waitFor()
      await screenshotAtEveryWidth(page, name, 'domains-list', `${d.publicUrl}/app/domains`, (p) => p.getByRole('row', { name: new RegExp(host) }).getByText('HTTPS').waitFor())

      // Another workspace's claim would be refused now; in this one, adding it again says so beside the field.
      await page.getByRole('link', { name: '+ Add domain' }).first().click()
      await page.getByRole('textbox', { name: 'Domain' }).fill(`https://${host}`)
      await allowingConsoleErrors(d.errors, /400/, async () => {
        await page.getByRole('button', { name: 'Add domain' }).click()
        await page.locator('.field-error', { hasText: 'The domain has been already used.' }).waitFor()
      })
    }, env)
  }, 180_000)
})
