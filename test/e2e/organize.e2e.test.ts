// Campaigns, channels and pixels in a real browser against the built server, on SQLite (and on
// PostgreSQL when TEST_DATABASE_URL is set): a campaign with a rotator whose visitors land on its
// links in turn, its links added and removed and its visits counted; a colored, starred channel
// with a link, a bio page and a QR code; a pixel refused with the server's own words, then added,
// edited and deleted. Every page is screenshot at 1440 and 375 px.
import type { Page } from 'playwright-core'
import { describe, expect, it } from 'vitest'
import { e2eDatabases, hasChromium, screenshotAtEveryWidth, signIn, startLandingSite, useBrowser, withDashboard } from './harness.js'

const nav = (page: Page, name: string) => page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name })

describe.skipIf(!hasChromium)('campaigns, channels and pixels in a browser', () => {
  const { browser, folder } = useBrowser()
  const databases = e2eDatabases(folder)

  it.each(databases)('runs a rotating campaign, fills a channel and manages pixels ($name)', async ({ name, create }) => {
    const landing = await startLandingSite()
    try {
      await withDashboard(browser(), await create(), async (d) => {
        await d.client.POST('/api/url/add', { body: { url: `${landing.url}/first`, custom: 'org-first' } })
        await d.client.POST('/api/url/add', { body: { url: `${landing.url}/second`, custom: 'org-second' } })
        const page = await d.signedInPage()
        await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: d.publicUrl })

        // ---- Campaigns ----
        await nav(page, 'Campaigns').click()
        await page.getByText('No campaigns yet').waitFor()
        await screenshotAtEveryWidth(page, name, 'campaigns-empty', `${d.publicUrl}/app/campaigns`, (p) => p.getByText('No campaigns yet').waitFor())
        await page.getByRole('link', { name: '+ New campaign' }).first().click()
        await page.getByRole('heading', { name: 'New campaign' }).waitFor()
        // The client refuses what the server would, beside the field.
        await page.getByLabel('Rotator slug (optional)').fill('no spaces')
        await page.getByRole('button', { name: 'Create campaign' }).click()
        await page.getByText('Use 3 to 64 letters, digits, _ or -.').waitFor()
        await screenshotAtEveryWidth(page, name, 'campaign-form', `${d.publicUrl}/app/campaigns/new`, (p) => p.getByLabel('Name (optional)').waitFor())
        await page.getByLabel('Name (optional)').fill('Spring rotation')
        await page.getByLabel('Rotator slug (optional)').fill('spring-rotator')
        await page.getByLabel(/Public list page/).check()
        await page.getByRole('button', { name: 'Create campaign' }).click()
        await page.getByRole('heading', { name: 'Spring rotation' }).waitFor()
        await page.getByText('Campaign created. Now add its links.').waitFor()

        // Both links join the campaign through the search.
        const picker = page.getByRole('region', { name: 'Add links' })
        const members = page.getByRole('list', { name: 'Links in this campaign' })
        await picker.getByLabel('Find a link').fill('org-')
        await picker.getByRole('button', { name: /^Add .*org-first$/ }).click()
        await members.getByRole('listitem').filter({ hasText: 'org-first' }).waitFor()
        await picker.getByRole('button', { name: /^Add .*org-second$/ }).click()
        await members.getByRole('listitem').filter({ hasText: 'org-second' }).waitFor()
        await expect.poll(() => picker.getByRole('button', { name: /^Added/ }).count()).toBe(2)

        // The rotator's address, shown and copied.
        const addresses = page.getByRole('region', { name: 'Addresses' })
        const rotator = await addresses.getByRole('link', { name: `${d.publicUrl}/r/spring-rotator` }).getAttribute('href')
        expect(rotator).toBe(`${d.publicUrl}/r/spring-rotator`)
        await addresses.getByRole('button', { name: 'Copy rotator URL' }).click()
        await addresses.getByRole('button', { name: 'Copied' }).waitFor()
        expect(await page.evaluate('navigator.clipboard.readText()')).toBe(rotator)
        const listUrl = await addresses.getByRole('link', { name: 'View public page' }).getAttribute('href')

        // Another browser follows the rotator twice and lands on each link in turn.
        const visitorContext = await d.newContext()
        // The public pages declare no icon; the browser's own /favicon.ico request is not the page's.
        await visitorContext.route('**/favicon.ico', (route) => route.fulfill({ status: 204 }))
        const visitor = await visitorContext.newPage()
        await visitor.goto(rotator!)
        expect(visitor.url()).toBe(`${landing.url}/first`)
        await visitor.goto(rotator!)
        expect(visitor.url()).toBe(`${landing.url}/second`)
        // The public list page shows the campaign's links.
        await visitor.goto(listUrl!)
        await visitor.getByRole('heading', { name: 'Spring rotation' }).waitFor()
        expect(await visitor.getByRole('link', { name: `${landing.url}/second` }).getAttribute('href')).toBe(`${d.publicUrl}/org-second`)

        // The visits show in the campaign's statistics.
        await page.getByTestId('range-clicks').filter({ hasText: /^2$/ }).waitFor({ timeout: 30_000 })

        // One link leaves the campaign; the rotator then only sends visitors to the other.
        await members.getByRole('button', { name: /^Remove .*org-second$/ }).click()
        await page.getByRole('alertdialog', { name: 'Remove this link from the campaign?' }).getByRole('button', { name: 'Remove link' }).click()
        await expect.poll(() => members.getByRole('listitem').count()).toBe(1)
        await visitor.goto(rotator!)
        expect(visitor.url()).toBe(`${landing.url}/first`)
        await visitor.goto(rotator!)
        expect(visitor.url()).toBe(`${landing.url}/first`)
        const campaignAddress = page.url()
        await screenshotAtEveryWidth(page, name, 'campaign-detail', campaignAddress, (p) => p.getByTestId('range-clicks').waitFor())

        // Edit: a new name, the views on the list.
        await page.getByRole('link', { name: 'Edit', exact: true }).click()
        await expect.poll(() => page.getByLabel('Name').inputValue()).toBe('Spring rotation')
        await page.getByLabel('Name').fill('Spring rotation 2026')
        await page.getByRole('button', { name: 'Save changes' }).click()
        await page.getByRole('heading', { name: 'Spring rotation 2026' }).waitFor()
        await nav(page, 'Campaigns').click()
        const row = page.getByRole('listitem').filter({ hasText: 'Spring rotation 2026' })
        await row.getByText('/r/spring-rotator').waitFor()
        await expect.poll(() => row.getByLabel(/rotator views/).getAttribute('aria-label'), { timeout: 30_000 }).toBe('4 rotator views')
        await page.getByTestId('usage-campaigns').waitFor()
        await screenshotAtEveryWidth(page, name, 'campaigns', `${d.publicUrl}/app/campaigns`, (p) => p.getByRole('link', { name: 'Spring rotation 2026', exact: true }).waitFor())

        // ---- Channels ----
        await d.client.POST('/api/bio/add', { body: { name: 'Org bio page', alias: 'org-bio' } })
        await d.client.POST('/api/qr/add', { body: { type: 'text', data: 'Hello shelf', name: 'Shelf QR' } })
        await nav(page, 'Channels').click()
        await page.getByText('No channels yet').waitFor()
        await page.getByRole('link', { name: '+ New channel' }).first().click()
        await page.getByLabel('Name').fill('Instagram')
        await page.getByLabel('Description (optional)').fill('Posts and stories')
        await page.getByLabel('Color', { exact: true }).fill('#e1306c')
        await page.getByLabel(/Starred/).check()
        await screenshotAtEveryWidth(page, name, 'channel-form', `${d.publicUrl}/app/channels/new`, (p) => p.getByLabel('Name').waitFor())
        await page.getByLabel('Name').fill('Instagram')
        await page.getByLabel('Description (optional)').fill('Posts and stories')
        await page.getByLabel('Color', { exact: true }).fill('#e1306c')
        await page.getByLabel(/Starred/).check()
        await page.getByRole('button', { name: 'Create channel' }).click()
        await page.getByRole('heading', { name: 'Instagram' }).waitFor()
        await page.getByText('Posts and stories').waitFor()
        const channelAddress = page.url()

        const items = page.getByRole('list', { name: 'Items in this channel' })
        const adder = page.getByRole('region', { name: 'Add to this channel' })
        await adder.getByLabel('Find short links').fill('org-first')
        await adder.getByRole('button', { name: /^Add .*org-first$/ }).click()
        await items.getByRole('listitem').filter({ hasText: 'org-first' }).waitFor()
        await adder.getByRole('button', { name: 'Bio pages' }).click()
        await adder.getByRole('button', { name: 'Add Org bio page' }).click()
        await items.getByRole('listitem').filter({ hasText: 'Org bio page' }).waitFor()
        await adder.getByRole('button', { name: 'QR codes' }).click()
        await adder.getByLabel('Find QR codes').fill('shelf')
        await adder.getByRole('button', { name: 'Add Shelf QR' }).click()
        await items.getByRole('listitem').filter({ hasText: 'Shelf QR' }).waitFor()
        await expect.poll(() => items.getByRole('listitem').count()).toBe(3)
        await items.getByRole('button', { name: 'Remove Org bio page' }).click()
        await page.getByRole('alertdialog', { name: 'Remove this bio page from the channel?' }).getByRole('button', { name: 'Remove' }).click()
        await expect.poll(() => items.getByRole('listitem').count()).toBe(2)
        const listed = await d.api<{ data: { items: Array<{ type: string }> } }>('GET', `/api/channel/${new URL(channelAddress).pathname.split('/').pop()}`)
        expect(listed.body.data.items.map((item) => item.type).sort()).toEqual(['links', 'qr'])
        await screenshotAtEveryWidth(page, name, 'channel-detail', channelAddress, (p) => p.getByText('Shelf QR').first().waitFor())

        // A newer channel without a star is listed after the starred one.
        expect((await d.api('POST', '/api/channel/add', { name: 'Newsletter', color: '#0ea5e9' })).status).toBe(201)
        await nav(page, 'Channels').click()
        const channelList = page.getByRole('list', { name: 'Channels' })
        await expect.poll(() => channelList.getByRole('listitem').allTextContents()).toEqual([expect.stringContaining('Instagram'), expect.stringContaining('Newsletter')])
        await screenshotAtEveryWidth(page, name, 'channels', `${d.publicUrl}/app/channels`, (p) => p.getByRole('link', { name: 'Newsletter', exact: true }).waitFor())

        // ---- Pixels ----
        const providers = (await d.api<{ providers: Array<{ type: string; expected: string }> }>('GET', '/api/pixels/providers')).body.providers
        const gtm = providers.find((provider) => provider.type === 'gtmpixel')!
        const refused = await d.api<{ message: string }>('POST', '/api/pixel/add', { type: 'gtmpixel', name: 'Probe', tag: 'UA-1234' })
        expect(refused.body.message).toBe(`The field "tag" must be ${gtm.expected}.`)
        expect((await d.api('POST', '/api/pixel/add', { type: 'gtmpixel', name: 'Existing', tag: 'GTM-ABC1234' })).status).toBe(201)

        await nav(page, 'Pixels').click()
        await page.getByText('Existing').first().waitFor()
        await page.getByRole('button', { name: '+ New pixel' }).click()
        const form = page.getByRole('form', { name: 'New pixel' })
        await form.getByLabel('Provider').selectOption({ label: 'Google Tag Manager' })
        await form.getByLabel('Name').fill('Shop GTM')
        await form.getByLabel('Tag').fill('UA-1234')
        await form.getByRole('button', { name: 'Add pixel' }).click()
        // The client's words are the server's rule, beside the field.
        await form.getByText(`Must be ${gtm.expected}.`).waitFor()
        expect(await form.getByLabel('Tag').getAttribute('aria-invalid')).toBe('true')
        // A tag of the right form the account already has: the server's refusal, beside the field.
        await form.getByLabel('Tag').fill('gtm-abc1234')
        await form.getByRole('button', { name: 'Add pixel' }).click()
        await form.getByText('A pixel with this provider and tag already exists.').waitFor()
        // The browser logs that refusal as a failed request: expected here, and only this one.
        const refusals = d.errors.filter((error) => error.includes('status of 400'))
        expect(refusals).toHaveLength(1)
        d.errors.splice(d.errors.indexOf(refusals[0]!), 1)
        await screenshotAtEveryWidth(page, name, 'pixel-form', `${d.publicUrl}/app/pixels`, async (p) => {
          await p.getByRole('button', { name: '+ New pixel' }).click()
          await p.getByRole('form', { name: 'New pixel' }).getByLabel('Provider').selectOption('fbpixel')
        })
        await page.getByRole('button', { name: '+ New pixel' }).click()
        const again = page.getByRole('form', { name: 'New pixel' })
        await again.getByLabel('Provider').selectOption('gtmpixel')
        await again.getByLabel('Name').fill('Shop GTM')
        await again.getByLabel('Tag').fill(' gtm-k9x2lm7 ')
        await again.getByRole('button', { name: 'Add pixel' }).click()
        await page.getByRole('status').filter({ hasText: 'Pixel “Shop GTM” added.' }).waitFor()
        const pixels = page.getByRole('list', { name: 'Pixels' })
        await pixels.getByText('GTM-K9X2LM7').waitFor()

        await pixels.getByRole('button', { name: 'Edit Shop GTM' }).click()
        const edit = page.getByRole('form', { name: 'Edit pixel Shop GTM' })
        await edit.getByLabel('Name').fill('Shop tags')
        await edit.getByRole('button', { name: 'Save pixel' }).click()
        await pixels.getByText('Shop tags').first().waitFor()
        await screenshotAtEveryWidth(page, name, 'pixels', `${d.publicUrl}/app/pixels`, (p) => p.getByText('Shop tags').first().waitFor())

        await pixels.getByRole('button', { name: 'Delete Shop tags' }).click()
        await page.getByRole('alertdialog', { name: 'Delete this pixel?' }).getByRole('button', { name: 'Delete pixel' }).click()
        await expect.poll(() => pixels.getByRole('listitem').count()).toBe(1)
        const left = await d.api<{ data: { pixels: Array<{ name: string }> } }>('GET', '/api/pixels')
        expect(left.body.data.pixels.map((pixel) => pixel.name)).toEqual(['Existing'])

        // ---- Isolation: another account, in another browser, sees none of it ----
        const rival = { username: 'rival', password: 'rival-password-1' }
        expect((await d.api('POST', '/api/user/add', { ...rival, email: 'rival@example.com' })).status).toBe(201)
        const other = await (await d.newContext()).newPage()
        await signIn(other, d.publicUrl, rival)
        for (const [path, empty] of [['campaigns', 'No campaigns yet'], ['channels', 'No channels yet'], ['pixels', 'No pixels yet']] as const) {
          await other.goto(`${d.publicUrl}/app/${path}`)
          await other.getByText(empty).waitFor()
        }
        const campaignId = new URL(campaignAddress).pathname.split('/').pop()!
        await other.goto(`${d.publicUrl}/app/campaigns/${campaignId}`)
        await other.getByText('Campaign not found. Please try again.').waitFor()
        await other.goto(channelAddress)
        await other.getByText('Channel not found. Please try again.').waitFor()
        // The browser logs those refusals (the record and, on the channel page, its items) as failed
        // requests: expected, and only from those two pages.
        const notFound = d.errors.filter((error) => error.includes('status of 404'))
        expect(notFound.length).toBeGreaterThanOrEqual(2)
        expect(notFound.every((error) => error.startsWith(`${d.publicUrl}/app/campaigns/${campaignId}:`) || error.startsWith(`${channelAddress}:`))).toBe(true)
        d.errors.splice(0, d.errors.length, ...d.errors.filter((error) => !notFound.includes(error)))
      })
    } finally {
      await landing.close()
    }
  }, 300_000)
})
