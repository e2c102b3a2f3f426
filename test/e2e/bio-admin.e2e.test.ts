// Bio pages and administration in a real browser, on SQLite (and PostgreSQL when TEST_DATABASE_URL
// is set): build a bio page with three link blocks, reorder them with the keyboard, and see the
// public page show the new order; edit and delete it. As the administrator create a small plan and
// a user on it; that user, signed in in a second browser, sees the plan's limits and is stopped at
// them; neither account ever sees the other's records, not even through a direct address; a
// suspended user's session is refused. Every page is screenshot at 1440 and 375 px.
import type { Page } from 'playwright-core'
import { describe, expect, it } from 'vitest'
import { allowingConsoleErrors, e2eDatabases, hasChromium, screenshotAtEveryWidth, signIn, useBrowser, withDashboard } from './harness.js'

/** The button titles of a public bio page, in order. */
async function publicBlocks(page: Page): Promise<string[]> {
  return page.locator('ul.blocks a').allTextContents()
}

async function previewBlocks(page: Page): Promise<string[]> {
  return page.frameLocator('iframe[title="Preview of the public page"]').locator('ul.blocks a').allTextContents()
}

describe.skipIf(!hasChromium)('bio pages and administration in a browser', () => {
  const { browser, folder } = useBrowser()
  const databases = e2eDatabases(folder)

  it.each(databases)('builds a bio page, reorders its blocks with the keyboard, sees the order on the public page, edits and deletes it ($name)', async ({ name, create }) => {
    await withDashboard(browser(), await create(), async (d) => {
      const page = await d.signedInPage()
      await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Bio pages' }).click()
      await page.getByText('No bio pages yet').waitFor()
      await page.getByRole('link', { name: '+ Create bio page' }).first().click()
      await page.getByRole('heading', { name: 'Create bio page' }).waitFor()

      await page.getByLabel('Name', { exact: true }).fill('Jane Doe')
      await page.getByLabel('Address (optional)').fill('jane-e2e')
      await page.getByLabel('Description (optional)').fill('Designer in Lisbon.')
      const blocks: Array<[string, string]> = [['Shop', 'https://shop.example.com/'], ['Blog', 'https://blog.example.com/'], ['Video', 'https://video.example.com/']]
      for (const [index, [title, url]] of blocks.entries()) {
        await page.getByRole('button', { name: '+ Add link block' }).click()
        // Focus lands in the new block's title.
        expect(await page.evaluate("document.activeElement?.getAttribute('data-focus')")).toBe('title')
        await page.keyboard.type(title)
        await page.getByLabel(`Block ${index + 1} URL`).fill(url)
      }
      // The client refuses what the server would, beside the field.
      await page.getByLabel('Block 2 URL').fill('javascript:alert(1)')
      await page.getByRole('button', { name: 'Create bio page' }).click()
      await page.getByText('Enter an http or https address, like https://example.com.').waitFor()
      await page.getByLabel('Block 2 URL').fill('https://blog.example.com/')
      // The preview is the server's rendering of the draft.
      await expect.poll(() => previewBlocks(page)).toEqual(['Shop', 'Blog', 'Video'])

      // Reorder with the keyboard: Video to the top with Alt+ArrowUp, focus staying in its title…
      await page.getByLabel('Block 3 title').focus()
      await page.keyboard.press('Alt+ArrowUp')
      await page.keyboard.press('Alt+ArrowUp')
      expect(await page.evaluate('document.activeElement?.value')).toBe('Video')
      expect(await page.evaluate('document.activeElement?.id')).toBe(await page.getByLabel('Block 1 title').getAttribute('id'))
      await expect.poll(() => page.getByRole('status').filter({ hasText: 'Moved' }).textContent()).toBe('Moved "Video" to position 1 of 3.')
      // …then Shop down with its labelled button, pressed from the keyboard.
      await page.getByRole('button', { name: 'Move "Shop" down' }).focus()
      await page.keyboard.press('Enter')
      await expect.poll(() => page.getByRole('status').filter({ hasText: 'Moved' }).textContent()).toBe('Moved "Shop" to position 3 of 3.')
      // At the bottom "down" is disabled: focus went to Shop's "up" button.
      expect(await page.evaluate("document.activeElement?.getAttribute('aria-label')")).toBe('Move "Shop" up')
      await expect.poll(() => previewBlocks(page)).toEqual(['Video', 'Blog', 'Shop'])

      await page.getByRole('button', { name: 'Create bio page' }).click()
      const live = page.getByRole('status').filter({ hasText: 'Your bio page is live at' })
      await live.waitFor()
      expect(await live.textContent()).toContain(`${d.publicUrl}/jane-e2e`)
      const editorUrl = page.url()
      const id = Number(new URL(editorUrl).pathname.split('/').pop())
      expect(id).toBeGreaterThan(0)
      await expect.poll(() => page.getByLabel('Block 1 title').inputValue()).toBe('Video')

      // A visitor in another browser sees the blocks in the new order.
      const visitor = await (await d.newContext()).newPage()
      await visitor.goto(`${d.publicUrl}/jane-e2e`)
      await visitor.getByRole('heading', { name: 'Jane Doe' }).waitFor()
      expect(await publicBlocks(visitor)).toEqual(['Video', 'Blog', 'Shop'])
      expect(await visitor.locator('ul.blocks a').first().getAttribute('href')).toBe('https://video.example.com/')

      // Edit a block.
      await page.getByLabel('Block 2 title').fill('Blog posts')
      await page.getByRole('button', { name: 'Save changes' }).click()
      await page.getByRole('status').filter({ hasText: 'Saved.' }).waitFor()
      await visitor.reload()
      expect(await publicBlocks(visitor)).toEqual(['Video', 'Blog posts', 'Shop'])

      // The list: the public address and the visits (the visitor's two).
      await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Bio pages' }).click()
      const row = page.getByRole('row').filter({ hasText: 'Jane Doe' })
      await row.getByRole('link', { name: '127.0.0.1' }).waitFor()
      expect(await row.getByRole('link', { name: /127\.0\.0\.1/ }).getAttribute('href')).toBe(`${d.publicUrl}/jane-e2e`)
      await expect.poll(async () => {
        await page.reload()
        return page.getByRole('row').filter({ hasText: 'Jane Doe' }).getByRole('link', { name: /visits?: statistics of Jane Doe/ }).locator('strong').textContent()
      }, { timeout: 15_000 }).toBe('2')
      await page.getByRole('link', { name: 'Statistics of Jane Doe', exact: true }).click()
      await page.getByRole('heading', { name: 'Jane Doe: statistics' }).waitFor()

      await screenshotAtEveryWidth(page, name, 'bio-pages', `${d.publicUrl}/app/bio`, (p) => p.getByRole('row').filter({ hasText: 'Jane Doe' }).waitFor())
      await screenshotAtEveryWidth(page, name, 'bio-editor', editorUrl, async (p) => {
        await p.getByLabel('Block 3 title').waitFor()
        await expect.poll(() => previewBlocks(p)).toEqual(['Video', 'Blog posts', 'Shop'])
        // Below the form on a phone: a frame the screen never reached is not painted in a full-page shot.
        // (The phone's sticky header then shows mid-page in the full-page shot: a capture artefact.)
        await p.locator('iframe').scrollIntoViewIfNeeded()
      })

      // Delete, behind a confirmation.
      await page.goto(`${d.publicUrl}/app/bio`)
      await page.getByRole('button', { name: 'Delete Jane Doe' }).click()
      const dialog = page.getByRole('alertdialog', { name: 'Delete this bio page?' })
      await dialog.getByRole('button', { name: 'Cancel' }).click()
      await page.getByRole('row').filter({ hasText: 'Jane Doe' }).waitFor()
      await page.getByRole('button', { name: 'Delete Jane Doe' }).click()
      await dialog.getByRole('button', { name: 'Delete bio page' }).click()
      await page.getByText('No bio pages yet').waitFor()
      expect((await fetch(`${d.publicUrl}/jane-e2e`)).status).toBe(404)
    })
  })

  it.each(databases)('administers plans and users; a user on a small plan meets its limits, never sees the admin\'s records, and is refused once suspended ($name)', async ({ name, create }) => {
    await withDashboard(browser(), await create(), async (d) => {
      // The administrator's own records.
      const adminLink = await d.client.POST('/api/url/add', { body: { url: 'https://admin.example.com/secret', custom: 'admin-secret' } })
      const adminBio = await d.client.POST('/api/bio/add', { body: { name: 'Admin Bio', alias: 'admin-bio' } })
      const adminCampaign = await d.client.POST('/api/campaign/add', { body: { name: 'Admin campaign' } })

      const admin = await d.signedInPage()
      const nav = admin.getByRole('navigation', { name: 'Main' })
      await nav.getByRole('link', { name: 'Plans' }).click()
      await admin.getByRole('heading', { name: 'Plans' }).waitFor()
      await admin.getByRole('button', { name: '+ Create plan' }).click()
      await admin.getByLabel('Plan name').fill('Tiny')
      await admin.getByLabel('Code', { exact: true }).fill('tiny')
      await admin.getByLabel('Most campaigns').fill('-1')
      await admin.getByRole('button', { name: 'Create plan' }).click()
      await admin.getByText('Use a whole number of 0 or more, or leave it empty for no limit.').waitFor()
      await admin.getByLabel('Most campaigns').fill('1')
      await admin.getByLabel('Most links').fill('2')
      await admin.getByLabel('Most bio pages').fill('1')
      await admin.getByRole('button', { name: 'Create plan' }).click()
      await admin.getByRole('status').filter({ hasText: 'Plan "Tiny" created.' }).waitFor()
      await admin.getByRole('row').filter({ hasText: 'Tiny' }).getByText('2 links, 1 bio page, 1 campaign').waitFor()
      // A second plan with the same code is refused beside the field.
      await admin.getByRole('button', { name: '+ Create plan' }).click()
      await admin.getByLabel('Plan name').fill('Tiny too')
      await admin.getByLabel('Code', { exact: true }).fill('tiny')
      await allowingConsoleErrors(d.errors, /status of 400/, async () => {
        await admin.getByRole('button', { name: 'Create plan' }).click()
        await admin.getByRole('alert').filter({ hasText: 'A plan with this code already exists.' }).waitFor()
      })
      expect(await admin.getByLabel('Code', { exact: true }).getAttribute('aria-invalid')).toBe('true')
      await admin.getByRole('button', { name: 'Cancel' }).click()
      await screenshotAtEveryWidth(admin, name, 'admin-plans', `${d.publicUrl}/app/admin/plans`, (p) => p.getByRole('row').filter({ hasText: 'Tiny' }).waitFor())

      // A user on that plan, with a password for the dashboard; the key is shown once.
      await admin.goto(`${d.publicUrl}/app/admin/users`)
      await admin.getByRole('button', { name: '+ Create user' }).click()
      await admin.getByLabel('E-mail address').fill('marta@example.com')
      await admin.getByLabel('Username').fill('marta')
      await admin.getByLabel('Password (optional)').fill('marta-password-1')
      await admin.getByLabel('Plan', { exact: true }).selectOption({ label: 'Tiny' })
      await admin.getByRole('button', { name: 'Create user' }).click()
      const key = await admin.getByLabel('New account\'s API key').textContent()
      expect(key).toMatch(/^lw_/)
      await admin.getByRole('button', { name: 'Copy key' }).waitFor()
      const martaRow = admin.getByRole('row').filter({ hasText: 'marta@example.com' })
      expect(await martaRow.getByLabel('Plan of marta').inputValue()).not.toBe('')
      expect(await martaRow.getByLabel('Plan of marta').locator('option:checked').textContent()).toBe('Tiny')
      await screenshotAtEveryWidth(admin, name, 'admin-users', `${d.publicUrl}/app/admin/users`, (p) => p.getByRole('row').filter({ hasText: 'marta@example.com' }).waitFor())

      // Marta signs in in a second browser and sees her plan's limits.
      const marta = await (await d.newContext()).newPage()
      await signIn(marta, d.publicUrl, { username: 'marta', password: 'marta-password-1' })
      // The administration is not offered to her…
      expect(await marta.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Users' }).count()).toBe(0)
      // …and refused when asked for directly.
      await allowingConsoleErrors(d.errors, /status of 403/, async () => {
        // Both of the page's requests (users, plans) are refused; wait for both.
        await Promise.all([marta.waitForResponse((response) => response.url().includes('/api/plans')), marta.goto(`${d.publicUrl}/app/admin/users`)])
        await marta.getByText('You do not have permission to access this endpoint.').waitFor()
      })
      await marta.goto(`${d.publicUrl}/app/account`)
      await marta.getByTestId('plan-usage-campaigns').filter({ hasText: '0 of 1 campaign' }).waitFor()
      await marta.getByTestId('plan-usage-links').filter({ hasText: '0 of 2 links' }).waitFor()
      await marta.getByText('You are on the tiny plan.').waitFor()

      // The administration's People page shows her, her workspace with her role, and her sign-in.
      await admin.goto(`${d.publicUrl}/app/admin/people`)
      const martaPerson = admin.getByRole('row').filter({ hasText: 'marta@example.com' })
      await martaPerson.getByRole('list', { name: 'Workspaces of marta' }).getByText('owner').waitFor()
      expect(await martaPerson.getByText('Never').count()).toBe(0)
      expect(await martaPerson.getByText('No second factor').count()).toBe(1)
      await screenshotAtEveryWidth(admin, name, 'admin-people', `${d.publicUrl}/app/admin/people`, (p) => p.getByRole('row').filter({ hasText: 'marta@example.com' }).waitFor())

      // Her records: a campaign and a link through her key, a bio page in the dashboard.
      const asMarta = async (method: string, path: string, body: unknown) => {
        const response = await fetch(`${d.publicUrl}${path}`, {
          method,
          headers: { authorization: `Bearer ${key}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
          body: body === undefined ? undefined : JSON.stringify(body),
        })
        return { status: response.status, body: (await response.json()) as { id: number } }
      }
      expect((await asMarta('POST', '/api/campaign/add', { name: 'Marta campaign' })).status).toBe(201)
      const martaLink = await asMarta('POST', '/api/url/add', { url: 'https://marta.example.com/', custom: 'marta-link' })
      expect(martaLink.status).toBe(201)
      await marta.goto(`${d.publicUrl}/app/bio/new`)
      await marta.getByLabel('Name', { exact: true }).fill('Marta Bio')
      await marta.getByRole('button', { name: '+ Add link block' }).click()
      await marta.getByLabel('Block 1 title').fill('Portfolio')
      await marta.getByLabel('Block 1 URL').fill('https://marta.example.com/')
      await marta.getByRole('button', { name: 'Create bio page' }).click()
      await marta.getByRole('status').filter({ hasText: 'Your bio page is live at' }).waitFor()
      const martaBioId = Number(new URL(marta.url()).pathname.split('/').pop())

      // At the limit: the usage says so and the create action is disabled with the reason.
      await marta.goto(`${d.publicUrl}/app/bio`)
      await marta.getByTestId('usage-bio').filter({ hasText: '1 of 1 bio page' }).waitFor()
      const createBio = marta.getByRole('button', { name: '+ Create bio page' })
      expect(await createBio.isDisabled()).toBe(true)
      expect(await marta.locator(`#${await createBio.getAttribute('aria-describedby')}`).textContent()).toBe('Your plan allows 1 bio page. Delete one, or ask an administrator for a larger plan, to create another.')
      await marta.goto(`${d.publicUrl}/app/campaigns`)
      await marta.getByTestId('usage-campaigns').filter({ hasText: '1 of 1 campaign' }).waitFor()
      const createCampaign = marta.getByRole('button', { name: '+ New campaign' })
      expect(await createCampaign.isDisabled()).toBe(true)
      expect(await marta.locator(`#${await createCampaign.getAttribute('aria-describedby')}`).textContent()).toBe('Your plan allows 1 campaign. Delete one, or ask an administrator for a larger plan, to create another.')
      await marta.goto(`${d.publicUrl}/app/account`)
      await marta.getByTestId('plan-usage-campaigns').filter({ hasText: '1 of 1 campaign' }).waitFor()
      await screenshotAtEveryWidth(marta, name, 'account-plan', `${d.publicUrl}/app/account`, (p) => p.getByTestId('plan-usage-bio').filter({ hasText: '1 of 1 bio page' }).waitFor())

      // Isolation, in Marta's browser: her records only…
      await marta.goto(`${d.publicUrl}/app/links`)
      await marta.getByRole('link', { name: /marta-link/ }).first().waitFor()
      expect(await marta.getByText('admin-secret').count()).toBe(0)
      await marta.goto(`${d.publicUrl}/app/bio`)
      await marta.getByRole('link', { name: 'Marta Bio', exact: true }).waitFor()
      expect(await marta.getByText('Admin Bio').count()).toBe(0)
      await marta.goto(`${d.publicUrl}/app/campaigns`)
      await marta.getByText('Marta campaign').first().waitFor()
      expect(await marta.getByText('Admin campaign').count()).toBe(0)
      // …and the administrator's are "Not found", even by their address.
      await allowingConsoleErrors(d.errors, /status of 404/, async () => {
        for (const address of [`/app/links/${adminLink.id}/edit`, `/app/bio/${adminBio.id}`, `/app/bio/${adminBio.id}/statistics`, `/app/campaigns/${adminCampaign.id}/edit`]) {
          await marta.goto(`${d.publicUrl}${address}`)
          await marta.getByRole('alert').getByText('Not found', { exact: true }).waitFor()
          expect(await marta.getByText('admin-secret').count(), address).toBe(0)
          expect(await marta.getByText('Admin Bio').count(), address).toBe(0)
          expect(await marta.getByText('Admin campaign').count(), address).toBe(0)
        }
      })

      // Isolation, in the administrator's browser.
      await admin.goto(`${d.publicUrl}/app/links`)
      await admin.getByRole('link', { name: /admin-secret/ }).first().waitFor()
      expect(await admin.getByText('marta-link').count()).toBe(0)
      await admin.goto(`${d.publicUrl}/app/bio`)
      await admin.getByRole('link', { name: 'Admin Bio', exact: true }).waitFor()
      expect(await admin.getByText('Marta Bio').count()).toBe(0)
      await admin.goto(`${d.publicUrl}/app/campaigns`)
      await admin.getByText('Admin campaign').first().waitFor()
      expect(await admin.getByText('Marta campaign').count()).toBe(0)
      await allowingConsoleErrors(d.errors, /status of 404/, async () => {
        for (const address of [`/app/links/${martaLink.body.id}/edit`, `/app/bio/${martaBioId}`]) {
          await admin.goto(`${d.publicUrl}${address}`)
          await admin.getByRole('alert').getByText('Not found', { exact: true }).waitFor()
          expect(await admin.getByText('Marta Bio').count(), address).toBe(0)
          expect(await admin.getByText('marta-link').count(), address).toBe(0)
        }
      })

      // Suspended, her session is refused; unsuspended, it works again.
      await admin.goto(`${d.publicUrl}/app/admin/users`)
      await admin.getByRole('button', { name: 'Suspend marta' }).click()
      await admin.getByRole('alertdialog', { name: 'Suspend marta?' }).getByRole('button', { name: 'Suspend user' }).click()
      await admin.getByRole('status').filter({ hasText: 'marta is suspended' }).waitFor()
      await admin.getByRole('row').filter({ hasText: 'marta@example.com' }).getByText('Suspended', { exact: true }).waitFor()
      await allowingConsoleErrors(d.errors, /status of 403/, async () => {
        await marta.goto(`${d.publicUrl}/app/links`)
        await marta.getByText('You do not have permission to access this endpoint.').waitFor()
        expect(await marta.getByText('marta-link').count()).toBe(0)
      })
      expect((await asMarta('POST', '/api/url/add', { url: 'https://marta.example.com/2' })).status).toBe(403)
      await admin.getByRole('button', { name: 'Unsuspend marta' }).click()
      await admin.getByRole('status').filter({ hasText: 'marta can sign in' }).waitFor()
      await marta.goto(`${d.publicUrl}/app/links`)
      await marta.getByRole('link', { name: /marta-link/ }).first().waitFor()

      // Delete her, behind a confirmation: her key stops working.
      await admin.getByRole('button', { name: 'Delete marta' }).click()
      await admin.getByRole('alertdialog', { name: 'Delete marta?' }).getByRole('button', { name: 'Delete user' }).click()
      await admin.getByRole('status').filter({ hasText: 'marta and everything they owned are deleted.' }).waitFor()
      expect(await admin.getByRole('row').filter({ hasText: 'marta@example.com' }).count()).toBe(0)
      expect((await asMarta('GET', '/api/account', undefined)).status).toBe(401)
    })
  })
})
