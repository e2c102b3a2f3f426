// The Webhooks page in a real browser against the built server (WEBHOOK_ALLOW_PRIVATE=1, a local
// receiver): a webhook added with the event picker, its secret shown once and copied, which then
// verifies the signed event a new link sends; the delivery log with the request and the answer;
// a test event failing while the receiver is down, retried once it is up; the webhook switched
// off and marked with why. Screenshots at 1440 and 375 px.
import type { Page } from 'playwright-core'
import { Webhook } from 'standardwebhooks'
import { describe, expect, it } from 'vitest'
import { startWebhookReceiver } from '../helpers/webhook-receiver.js'
import { e2eDatabases, hasChromium, screenshotAtEveryWidth, useBrowser, withDashboard } from './harness.js'

const nav = (page: Page, name: string) => page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name })

describe.skipIf(!hasChromium)('webhooks in a browser', () => {
  const { browser, folder } = useBrowser()
  const databases = e2eDatabases(folder)

  it.each(databases)('adds a webhook, keeps its secret, shows its deliveries, retries, tests and switches it off ($name)', async ({ name, create }) => {
    const receiver = await startWebhookReceiver()
    try {
      await withDashboard(browser(), await create(), async (d) => {
        const page = await d.signedInPage()
        await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: d.publicUrl })

        await nav(page, 'Webhooks').click()
        await page.getByText('No webhooks yet').waitFor()
        await screenshotAtEveryWidth(page, name, 'webhooks-empty', `${d.publicUrl}/app/webhooks`, (p) => p.getByText('No webhooks yet').waitFor())
        await page.getByRole('button', { name: '+ New webhook' }).first().click()
        const form = page.getByRole('form', { name: 'New webhook' })
        // The client refuses what the server would, beside the field.
        await form.getByLabel('Endpoint URL').fill('ftp://example.com')
        await form.getByRole('button', { name: 'Add webhook' }).click()
        await form.getByText('Enter the http or https address that receives the events.').waitFor()
        await form.getByText('Choose at least one event.').waitFor()
        await form.getByLabel('Endpoint URL').fill(`${receiver.url}/hooks/linkwell`)
        await form.getByLabel('Description (optional)').fill('Our CRM')
        await form.getByRole('checkbox', { name: 'All short links events' }).check()
        await form.getByRole('checkbox', { name: /contact\.submitted/ }).check()
        // Four link events and the contact message, with their two groups' own boxes.
        await expect.poll(() => form.getByRole('checkbox', { checked: true }).count()).toBe(7)
        await page.screenshot({ path: `test-results/screenshots/${name}-webhook-form-1440.png`, fullPage: true })
        await form.getByRole('button', { name: 'Add webhook' }).click()

        // The secret, once, with a copy button.
        const secretPanel = page.getByRole('region', { name: /Signing secret of/ })
        const secret = (await secretPanel.getByLabel('Signing secret').textContent())!
        expect(secret).toMatch(/^whsec_/)
        await secretPanel.getByRole('button', { name: 'Copy secret' }).click()
        await secretPanel.getByRole('button', { name: 'Copied' }).waitFor()
        expect(await page.evaluate('navigator.clipboard.readText()')).toBe(secret)
        await secretPanel.getByRole('button', { name: 'Done' }).click()
        await page.reload()
        await page.getByRole('list', { name: 'Webhooks' }).getByRole('link', { name: `${receiver.url}/hooks/linkwell`, exact: true }).waitFor()
        expect(await page.content()).not.toContain(secret)

        // A new link sends its event, signed with that secret.
        const link = await d.client.POST('/api/url/add', { body: { url: 'https://example.com/spring', custom: 'hooked' } })
        const [delivered] = await receiver.waitForDelivered(1)
        const event = new Webhook(secret).verify(delivered!.body, delivered!.headers) as { type: string; data: { id: number } }
        expect(event).toMatchObject({ type: 'link.created', data: { id: link.id } })

        // The delivery log: delivered, with the request and the answer.
        await page.getByRole('link', { name: /^Deliveries/ }).click()
        await page.getByRole('heading', { name: 'Webhook' }).waitFor()
        const log = page.getByRole('list', { name: 'Deliveries' })
        const first = log.getByRole('listitem').filter({ hasText: 'link.created' })
        await first.getByText('Delivered').waitFor()
        await first.getByText('HTTP 200').first().waitFor()
        await first.getByText('Request and response').click()
        await first.getByText(`webhook-id: ${delivered!.headers['webhook-id']}`).waitFor()
        await first.getByText('thanks').waitFor()
        const detailUrl = page.url()
        await screenshotAtEveryWidth(page, name, 'webhook-deliveries', detailUrl, async (p) => {
          await p.getByRole('list', { name: 'Deliveries' }).getByText('Delivered').first().waitFor()
          await p.getByText('Request and response').first().click()
          await p.getByText('webhook-signature: v1,').first().waitFor()
        })

        // A test event while the receiver is down fails (tried once); retried once it is up, it arrives.
        receiver.mode = 'down'
        await page.getByRole('button', { name: 'Send test' }).click()
        await page.getByText('A test event is on its way').waitFor()
        const test = log.getByRole('listitem').filter({ hasText: 'webhook.test' })
        await test.getByText('Failed').waitFor({ timeout: 15_000 })
        await test.getByText('the server answered HTTP 503').first().waitFor()
        receiver.mode = 'ok'
        await test.getByRole('button', { name: /^Retry now/ }).click()
        await test.getByText('Delivered').waitFor({ timeout: 15_000 })
        expect(receiver.delivered.filter((request) => request.event.type === 'webhook.test')).toHaveLength(1)

        // Switched off: marked, with why, on the detail page and in the list.
        await page.getByRole('button', { name: 'Switch off' }).click()
        await page.getByRole('note', { name: 'Switched off' }).getByText('Switched off by a person.').waitFor()
        await screenshotAtEveryWidth(page, name, 'webhook-switched-off', detailUrl, (p) => p.getByRole('note', { name: 'Switched off' }).waitFor())
        await nav(page, 'Webhooks').click()
        const row = page.getByRole('list', { name: 'Webhooks' }).getByRole('listitem').first()
        await row.getByText('Switched off', { exact: true }).waitFor()
        await row.getByText('Switched off by a person.').waitFor()
        await screenshotAtEveryWidth(page, name, 'webhooks', `${d.publicUrl}/app/webhooks`, (p) => p.getByRole('list', { name: 'Webhooks' }).waitFor())
      }, { WEBHOOK_ALLOW_PRIVATE: '1' })
    } finally {
      await receiver.close()
    }
  }, 180_000)
})
