// Teams in a real browser (issue 20), on SQLite (and PostgreSQL when TEST_DATABASE_URL is set): the
// owner invites an editor and a viewer; two more browsers open the links and join as new people;
// the editor creates a link; the viewer sees it but its create button is disabled with the reason;
// the owner promotes the editor to admin, who makes an API key, then demotes them to viewer: the
// open page is refused at its next change and the key loses the right to change anything at once; the owner makes a second workspace and switches with the switcher.
// Every page is screenshot at 1440 and 375 px.
import type { Page } from 'playwright-core'
import { describe, expect, it } from 'vitest'
import { e2eDatabases, hasChromium, screenshot, screenshotAtEveryWidth, useBrowser, withDashboard, type Dashboard } from './harness.js'

const PASSWORD = 'team member password'

/** Invites `email` in `role` through the Members page; answers the link shown to copy. */
async function invite(page: Page, email: string, role: 'Editor' | 'Viewer'): Promise<string> {
  await page.getByLabel('E-mail address').fill(email)
  await page.getByLabel('Role', { exact: true }).selectOption({ label: role })
  await page.getByRole('button', { name: 'Send invitation' }).click()
  const shown = page.getByRole('status').filter({ hasText: `${email} is invited.` })
  await shown.waitFor()
  return (await shown.getByLabel('Invitation link').textContent())!
}

/** A new browser opens `link` and joins as a new person named `username`. */
async function join(d: Dashboard, link: string, username: string): Promise<Page> {
  const page = await (await d.newContext()).newPage()
  await page.goto(link)
  await page.getByRole('heading', { name: /^Join / }).waitFor()
  await page.getByLabel('Username').fill(username)
  await page.getByLabel('Password').fill(PASSWORD)
  await page.getByRole('button', { name: /^Join / }).click()
  await page.getByRole('heading', { name: 'Overview' }).waitFor()
  return page
}

describe.skipIf(!hasChromium)('a team in a browser', () => {
  const { browser, folder } = useBrowser()
  const databases = e2eDatabases(folder)

  it.each(databases)('invites an editor and a viewer, who work in the workspace within their roles; a demotion takes effect at once ($name)', async ({ name, create }) => {
    await withDashboard(browser(), await create(), async (d) => {
      const owner = await d.signedInPage()
      await owner.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Members' }).click()
      await owner.getByRole('heading', { name: 'Members' }).waitFor()
      const editorLink = await invite(owner, 'editor@example.com', 'Editor')
      // The token in the fragment: no server on the way logs it (issue 36).
      expect(editorLink).toMatch(new RegExp(`^${d.publicUrl}/app/invitation#`))
      const viewerLink = await invite(owner, 'viewer@example.com', 'Viewer')
      await owner.getByRole('row').filter({ hasText: 'viewer@example.com' }).waitFor()
      await screenshotAtEveryWidth(owner, name, 'members-pending', `${d.publicUrl}/app/members`, (p) => p.getByRole('row').filter({ hasText: 'editor@example.com' }).waitFor())

      // The invitation page as a newcomer sees it.
      const newcomer = await (await d.newContext()).newPage()
      await screenshotAtEveryWidth(newcomer, name, 'invitation', editorLink, (p) => p.getByRole('heading', { name: /^Join / }).waitFor())
      // A link mailed before (the token in the path) still opens, and the address bar keeps the fragment form.
      await newcomer.goto(editorLink.replace('/app/invitation#', '/app/invitation/'))
      await newcomer.getByRole('heading', { name: /^Join / }).waitFor()
      await expect.poll(() => newcomer.url()).toBe(editorLink)
      await newcomer.close()

      const editor = await join(d, editorLink, 'eddie')
      const viewer = await join(d, viewerLink, 'vera')

      // The editor creates a link.
      await editor.goto(`${d.publicUrl}/app/links/new`)
      await editor.getByLabel('Destination URL').fill('https://example.com/team-launch')
      await editor.getByLabel('Alias (optional)').fill('team-launch')
      await editor.getByRole('button', { name: 'Create link', exact: true }).click()
      await editor.getByRole('status').filter({ hasText: 'Your short link is ready' }).waitFor()

      // The viewer sees it, and a create button they cannot use, with the reason beside it.
      await viewer.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Links' }).click()
      await viewer.getByRole('row').filter({ hasText: 'team-launch' }).waitFor()
      const createLink = viewer.getByRole('navigation', { name: 'Main' }).getByRole('button', { name: '+ Create link' })
      expect(await createLink.isDisabled()).toBe(true)
      expect(await viewer.locator(`#${await createLink.getAttribute('aria-describedby')}`).textContent()).toBe('Viewers read this workspace; they do not change it.')
      // Nor may they edit or delete it: the row's actions are disabled, and say why.
      const row = viewer.getByRole('row').filter({ hasText: 'team-launch' })
      expect(await row.getByRole('button', { name: /^Edit/ }).isDisabled()).toBe(true)
      expect(await row.getByRole('button', { name: /^Delete/ }).isDisabled()).toBe(true)
      expect(await viewer.getByRole('main').getByRole('button', { name: '+ Create link' }).isDisabled()).toBe(true)
      expect(await viewer.locator('#links-role-reason').textContent()).toBe('Viewers read this workspace; they do not change it.')
      await screenshotAtEveryWidth(viewer, name, 'viewer-links', `${d.publicUrl}/app/links`, (p) => p.getByRole('row').filter({ hasText: 'team-launch' }).waitFor())
      // Detail pages too: the link's analytics page and a campaign's page offer their changes disabled, with the reason.
      const reason = 'Viewers read this workspace; they do not change it.'
      const urls = await d.api<{ data: { urls: Array<{ id: number; shorturl: string }> } }>('GET', '/api/urls')
      const teamLink = urls.body.data.urls.find((entry) => entry.shorturl.endsWith('/team-launch'))!
      await viewer.goto(`${d.publicUrl}/app/links/${teamLink.id}/analytics`)
      const editLink = viewer.getByRole('button', { name: 'Edit link' })
      expect(await editLink.isDisabled()).toBe(true)
      expect(await viewer.locator(`#${await editLink.getAttribute('aria-describedby')}`).textContent()).toBe(reason)
      const campaign = await d.api<{ id: number }>('POST', '/api/campaign/add', { name: 'Team spring' })
      await viewer.goto(`${d.publicUrl}/app/campaigns/${campaign.body.id}`)
      const header = viewer.getByRole('main')
      expect(await header.getByRole('button', { name: 'Edit', exact: true }).isDisabled()).toBe(true)
      expect(await header.getByRole('button', { name: 'Delete', exact: true }).isDisabled()).toBe(true)
      expect(await viewer.locator(`#${await header.getByRole('button', { name: 'Delete', exact: true }).getAttribute('aria-describedby')}`).textContent()).toBe(reason)
      await screenshotAtEveryWidth(viewer, name, 'viewer-campaign-detail', `${d.publicUrl}/app/campaigns/${campaign.body.id}`, (p) => p.getByRole('button', { name: 'Delete', exact: true }).waitFor())
      // Every page's create button says the same (QR codes here), beside it.
      await viewer.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'QR codes' }).click()
      const createQr = viewer.getByRole('main').getByRole('button', { name: '+ Create QR code' }).first()
      expect(await createQr.isDisabled()).toBe(true)
      expect(await viewer.locator(`#${await createQr.getAttribute('aria-describedby')}`).textContent()).toBe('Viewers read this workspace; they do not change it.')
      // On the Members page every action is disabled, and says why.
      await viewer.goto(`${d.publicUrl}/app/members`)
      await viewer.getByRole('row').filter({ hasText: 'eddie' }).waitFor()
      expect(await viewer.getByRole('button', { name: 'Send invitation' }).isDisabled()).toBe(true)
      expect(await viewer.getByRole('button', { name: 'Remove eddie' }).isDisabled()).toBe(true)
      expect(await viewer.getByText('Only owners and admins can invite, change or remove members.').count()).toBeGreaterThan(0)
      // The account page asks nothing a viewer may not read: keys and the workspace's time zone say why.
      await viewer.goto(`${d.publicUrl}/app/account`)
      await viewer.getByText('Only owners and admins manage this.').waitFor()
      // Their own sign-in address is theirs to change, whatever their role (issue 38: confirmed by mail).
      expect(await viewer.getByLabel('New e-mail address').isDisabled()).toBe(false)
      await viewer.getByText('An owner of the workspace can change it.').waitFor()
      await viewer.goto(`${d.publicUrl}/app/members`)
      await screenshotAtEveryWidth(viewer, name, 'members-as-viewer', `${d.publicUrl}/app/members`, (p) => p.getByRole('row').filter({ hasText: 'eddie' }).waitFor())

      // Editors make no API keys: keys are an admin's (the API answers 403, the key is not made).
      const beforeKey = d.errors.length
      const editorKey = await editor.evaluate(async () => {
        const response = await fetch('/api/key/add', { method: 'POST', headers: { 'content-type': 'application/json', 'x-linkwell-csrf': '1' }, body: JSON.stringify({ name: 'script' }) })
        return { status: response.status, body: await response.json() as { key?: string } }
      })
      expect(editorKey.status).toBe(403)
      await expect.poll(() => d.errors.length).toBeGreaterThan(beforeKey)
      expect(d.errors.splice(beforeKey)).toEqual([expect.stringMatching(/status of 403/)])

      // Promoted to admin, eddie makes a key for a script; it creates links.
      await owner.goto(`${d.publicUrl}/app/members`)
      await owner.getByLabel('Role of eddie').selectOption({ label: 'Admin' })
      await expect.poll(() => owner.getByLabel('Role of eddie').inputValue()).toBe('admin')
      const adminKey = await editor.evaluate(async () => {
        const response = await fetch('/api/key/add', { method: 'POST', headers: { 'content-type': 'application/json', 'x-linkwell-csrf': '1' }, body: JSON.stringify({ name: 'eddie script' }) })
        return { status: response.status, body: await response.json() as { key: string } }
      })
      expect(adminKey.status).toBe(201)
      const asEddieScript = async (method: string, path: string, body?: unknown) => {
        const response = await fetch(`${d.publicUrl}${path}`, {
          method,
          headers: { authorization: `Bearer ${adminKey.body.key}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
          body: body === undefined ? undefined : JSON.stringify(body),
        })
        return { status: response.status, body: await response.json() as { message?: string; code?: string } }
      }
      expect((await asEddieScript('POST', '/api/url/add', { url: 'https://example.com/by-script', custom: 'eddie-script' })).status).toBe(201)

      // The owner demotes eddie to viewer; the page eddie has open since before is refused at its
      // next change, and eddie's key loses the right to change anything at once.
      await editor.goto(`${d.publicUrl}/app/links/new`)
      await editor.getByLabel('Destination URL').waitFor()
      await owner.goto(`${d.publicUrl}/app/members`)
      await owner.getByLabel('Role of eddie').selectOption({ label: 'Viewer' })
      await expect.poll(() => owner.getByLabel('Role of eddie').inputValue()).toBe('viewer')
      const mark = d.errors.length
      await editor.getByLabel('Destination URL').fill('https://example.com/too-late')
      await editor.getByRole('button', { name: 'Create link', exact: true }).click()
      await editor.getByText('You do not have permission to access this endpoint.').waitFor()
      // The refusal the browser logs is the one provoked here, and the only one.
      await expect.poll(() => d.errors.length).toBeGreaterThan(mark)
      expect(d.errors.splice(mark)).toEqual([expect.stringMatching(/links\/new: .*status of 403/)])
      // The refusal made the page read the role again: the open page now offers no create, with the reason.
      const editorCreate = editor.getByRole('navigation', { name: 'Main' }).getByRole('button', { name: '+ Create link' })
      await expect.poll(() => editorCreate.isDisabled(), { timeout: 10_000 }).toBe(true)
      const refusedByKey = await asEddieScript('POST', '/api/url/add', { url: 'https://example.com/after-demotion' })
      expect(refusedByKey).toEqual({ status: 403, body: { error: 1, message: 'You do not have access to this endpoint with this API key.', code: 'forbidden' } })
      expect((await asEddieScript('GET', '/api/urls')).status).toBe(200)

      // The owner's API key still works; a new workspace appears in the switcher.
      expect((await d.api('GET', '/api/urls')).status).toBe(200)
      await owner.getByRole('link', { name: '+ New workspace' }).click()
      await owner.getByLabel('Workspace name').fill('second-team')
      await owner.getByRole('button', { name: 'Create workspace' }).click()
      await owner.getByRole('heading', { name: 'Overview' }).waitFor()
      const switcher = owner.getByRole('combobox', { name: 'Current workspace' })
      await expect.poll(async () => (await switcher.locator('option:checked').textContent()) ?? '').toContain('second-team')
      await owner.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Links' }).click()
      await owner.getByText(/No links yet|no links/i).first().waitFor()
      await screenshotAtEveryWidth(owner, name, 'workspace-switcher', `${d.publicUrl}/app/members`, (p) => p.getByRole('row').filter({ hasText: d.credentials.username }).waitFor())
      await switcher.selectOption({ label: `${d.credentials.username} (Owner)` })
      await owner.getByRole('heading', { name: 'Overview' }).waitFor()
      await owner.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Links' }).click()
      await owner.getByRole('row').filter({ hasText: 'team-launch' }).waitFor()

      // The owner deletes the second workspace from its Members page, once its name is typed, and
      // continues in the first; the administration's workspace itself offers no way out.
      await owner.getByRole('combobox', { name: 'Current workspace' }).selectOption({ label: 'second-team (Owner)' })
      await owner.getByRole('heading', { name: 'Overview' }).waitFor()
      await screenshotAtEveryWidth(owner, name, 'members-delete-workspace', `${d.publicUrl}/app/members`, (p) => p.getByRole('heading', { name: 'Delete this workspace' }).waitFor())
      await owner.getByRole('button', { name: 'Delete workspace…' }).click()
      const dialog = owner.getByRole('alertdialog', { name: 'Delete second-team?' })
      const confirm = dialog.getByRole('button', { name: 'Delete workspace' })
      expect(await confirm.isDisabled()).toBe(true)
      await dialog.getByLabel('Type the workspace\'s name, second-team, to confirm').fill('second-team')
      await screenshot(owner, name, 'members-delete-workspace-dialog')
      await confirm.click()
      await owner.getByRole('heading', { name: 'Overview' }).waitFor()
      const left = await d.api<{ data: { workspaces: Array<{ name: string }> } }>('GET', '/api/workspaces')
      expect(left.body.data.workspaces.map((workspace) => workspace.name)).toEqual([d.credentials.username])
      await owner.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Members' }).click()
      await owner.getByRole('heading', { name: 'Delete this workspace' }).waitFor()
      expect(await owner.getByRole('button', { name: 'Delete workspace…' }).isDisabled()).toBe(true)
    })
  }, 240_000)
})
