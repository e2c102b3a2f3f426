// Analytics that answer questions in a real browser (issue 24), on SQLite (and PostgreSQL when
// TEST_DATABASE_URL is set): a link gets clicks from two countries, two browsers and two
// referrers (and synthetic clicks in the 30 days before, through `linkwell dev seed-clicks`);
// on its statistics page a click on a country's row adds a filter chip, the address carries it and
// the figures are the filtered ones; a browser's row adds a second; a reload keeps both; the
// comparison draws the previous period; the granularity changes the series; the CSV export says
// the filters; the live counter shows the clicks of the last hour. The workspace's time zone is
// set on the account page and named on the statistics page. Screenshots at 1440 and 375 px.
import fs from 'node:fs'
import type { Page } from 'playwright-core'
import { describe, expect, it } from 'vitest'
import { DAY_MS, dayOf } from '../../src/core/time.js'
import { runCli } from '../cli/cli-runner.js'
import { e2eDatabases, hasChromium, screenshotAtEveryWidth, useBrowser, VISITOR_AGENT, withDashboard, type Dashboard } from './harness.js'

const US_IP = '8.8.8.8'
const GB_IP = '81.2.69.160'
const FIREFOX = 'Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0'

/** The clicks recorded, as [IP, user agent, referrer]: 5 from the US (3 of them Firefox), 3 from the UK. */
const VISITS: Array<[string, string, string | undefined]> = [
  [US_IP, VISITOR_AGENT, 'https://twitter.com/someone/status/1'],
  [US_IP, VISITOR_AGENT, 'https://twitter.com/someone/status/2'],
  [US_IP, FIREFOX, 'https://www.google.com/'],
  [US_IP, FIREFOX, 'https://www.google.com/search'],
  [US_IP, FIREFOX, undefined],
  [GB_IP, VISITOR_AGENT, 'https://twitter.com/other'],
  [GB_IP, VISITOR_AGENT, 'https://twitter.com/other'],
  [GB_IP, FIREFOX, undefined],
]

type Stats = { clicks: number; uniqueClicks: number; previous?: { clicks: number; uniqueClicks: number } }

async function statsOf(d: Dashboard, id: number, query: string): Promise<Stats> {
  const answer = await d.api<{ data: Stats }>('GET', `/api/url/${id}/stats?${query}`)
  expect(answer.status).toBe(200)
  return answer.body.data
}

/** Polls as long as a loaded two-core machine may take to answer (vitest's default is 1 s). */
function poll<T>(read: () => Promise<T> | T) {
  return expect.poll(read, { timeout: 15_000 })
}

async function figure(page: Page, testId: string): Promise<string | null> {
  return page.getByTestId(testId).textContent()
}

describe.skipIf(!hasChromium)('analytics in a browser', () => {
  const { browser, folder } = useBrowser()
  const databases = e2eDatabases(folder)

  it.each(databases)('filters by clicking rows, keeps the view in the address, compares, exports and counts live ($name)', async ({ name, create }) => {
    const database = await create()
    await withDashboard(browser(), database, async (d) => {
      const created = await d.api<{ id: number; shorturl: string }>('POST', '/api/url/add', { url: 'https://example.com/spring', custom: 'spring-e2e' })
      expect(created.status).toBe(201)
      const id = created.body.id
      const today = dayOf(Date.now())
      const from = dayOf(Date.now() - 29 * DAY_MS)

      // The 30 days before the default range: synthetic clicks, so the comparison has something to show.
      const seeded = await runCli(database.url, ['dev', 'seed-clicks', '--link', String(id), '--count', '300', '--days', '30', '--last-day', dayOf(Date.now() - 30 * DAY_MS)])
      expect(seeded.code, seeded.stderr).toBe(0)

      // The visitors, through the trusted proxy (this machine) that says their address.
      for (const [ip, agent, referrer] of VISITS) {
        const response = await fetch(created.body.shorturl, { redirect: 'manual', headers: { 'x-forwarded-for': ip, 'user-agent': agent, ...(referrer ? { referer: referrer } : {}) } })
        expect([301, 302]).toContain(response.status)
      }
      await expect.poll(async () => (await statsOf(d, id, `from=${from}&to=${today}`)).clicks, { timeout: 20_000 }).toBe(8)

      const page = await d.signedInPage()
      await page.goto(`${d.publicUrl}/app/links/${id}/analytics`)
      await poll(() => figure(page, 'range-clicks')).toBe('8')
      const countries = page.getByRole('region', { name: 'Top countries' })
      expect(await countries.getByRole('listitem').allTextContents()).toEqual([expect.stringMatching(/^United States5 63%/), expect.stringMatching(/^United Kingdom3 38%/)])

      // A country's row: a chip, the address, the filtered figures.
      await countries.getByRole('button', { name: /United States/ }).click()
      await page.getByRole('button', { name: 'Remove filter Country: United States' }).waitFor()
      expect(new URL(page.url()).searchParams.getAll('country')).toEqual(['United States'])
      await poll(() => figure(page, 'range-clicks')).toBe('5')
      const browsers = page.getByRole('region', { name: 'Browsers' })
      await poll(() => browsers.getByRole('listitem').allTextContents()).toEqual([expect.stringMatching(/^Firefox3 60%/), expect.stringMatching(/^Chrome2 40%/)])
      expect((await page.getByRole('region', { name: 'Referrers' }).getByRole('listitem').allTextContents()).map((text) => text.replace(/ .*/, '')).sort()).toEqual(['Direct1', 'google.com2', 'twitter.com2'])

      // A second chip, from the browsers' list.
      await browsers.getByRole('button', { name: /Firefox/ }).click()
      await page.getByRole('button', { name: 'Remove filter Browser: Firefox' }).waitFor()
      await poll(() => figure(page, 'range-clicks')).toBe('3')
      expect(new URL(page.url()).searchParams.getAll('browser')).toEqual(['Firefox'])
      const filtered = await statsOf(d, id, `from=${from}&to=${today}&country=United States&browser=Firefox`)
      expect(filtered.clicks).toBe(3)
      expect(await figure(page, 'range-unique')).toBe(String(filtered.uniqueClicks))
      // The live counter: the last hour's clicks under the same filters.
      await expect.poll(() => figure(page, 'live-clicks'), { timeout: 15_000 }).toBe('3')

      // A reload restores the view.
      await page.reload()
      await page.getByRole('button', { name: 'Remove filter Country: United States' }).waitFor()
      await page.getByRole('button', { name: 'Remove filter Browser: Firefox' }).waitFor()
      await poll(() => figure(page, 'range-clicks')).toBe('3')

      // The previous period beside it: on the chart (its table) and beside the totals.
      // (The box follows the address, which changes just after the click.)
      await page.getByRole('checkbox', { name: 'Compare with previous period' }).click()
      await poll(() => page.getByRole('checkbox', { name: 'Compare with previous period' }).isChecked()).toBe(true)
      await poll(() => new URL(page.url()).searchParams.get('compare')).toBe('previous')
      const compared = await statsOf(d, id, `from=${from}&to=${today}&country=United States&browser=Firefox&compare=previous`)
      expect(compared.previous!.clicks).toBeGreaterThan(0)
      await page.getByRole('columnheader', { name: 'Clicks, previous period' }).waitFor({ state: 'attached' })
      await poll(() => page.getByTestId('range-clicks-change').textContent()).toContain(`vs ${compared.previous!.clicks} before`)
      const chart = page.getByRole('table', { name: /with the previous period/ })
      const previousColumn = await chart.locator('tbody tr td:nth-child(4)').allTextContents()
      expect(previousColumn).toHaveLength(30)
      expect(previousColumn.reduce((sum, cell) => sum + Number(cell), 0)).toBe(compared.previous!.clicks)

      await screenshotAtEveryWidth(page, name, 'analytics-filtered-compared', page.url(), (shown) => shown.getByTestId('range-clicks-change').waitFor())

      // By week, then by hour.
      await page.getByRole('group', { name: 'Granularity' }).getByRole('button', { name: 'Week' }).click()
      await page.getByRole('heading', { name: 'Clicks per week' }).waitFor()
      expect(new URL(page.url()).searchParams.get('granularity')).toBe('week')
      await page.getByRole('group', { name: 'Granularity' }).getByRole('button', { name: 'Hour' }).click()
      await page.getByRole('heading', { name: 'Clicks per hour' }).waitFor()
      await poll(() => page.getByRole('table', { name: /per hour/ }).locator('tbody tr').count()).toBeGreaterThanOrEqual(30 * 24 - 1)
      await poll(() => figure(page, 'range-clicks')).toBe('3')

      // The CSV of this view says what it is.
      const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Export CSV' }).click()])
      const csv = fs.readFileSync((await download.path())!, 'utf8')
      expect(csv).toContain('filter,Country: United States')
      expect(csv).toContain('filter,Browser: Firefox')
      expect(csv).toContain('granularity,hour')
      expect(csv).toContain('time zone,UTC')
      expect(csv).toMatch(new RegExp(`total,${from} to ${today},3,${filtered.uniqueClicks},${compared.previous!.clicks},`))
      expect(csv).toMatch(/browsers,Firefox,3,/)
      expect(csv).not.toMatch(/browsers,Chrome/)

      // Taking a chip off widens the figures again.
      await page.getByRole('button', { name: 'Remove filter Browser: Firefox' }).click()
      await poll(() => figure(page, 'range-clicks')).toBe('5')
      await page.getByRole('button', { name: 'Remove filter Country: United States' }).click()
      await poll(() => figure(page, 'range-clicks')).toBe('8')
      await expect.poll(() => figure(page, 'live-clicks'), { timeout: 15_000 }).toBe('8')

      // The workspace's analytics: the same view over all its links, reached from the sidebar.
      await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Analytics' }).click()
      await page.getByRole('heading', { name: 'Analytics', level: 1 }).waitFor()
      await poll(() => figure(page, 'range-clicks')).toBe('8')
      await page.getByRole('region', { name: 'Referrers' }).getByRole('button', { name: /twitter\.com/ }).click()
      await page.getByRole('button', { name: 'Remove filter Referrer: twitter.com' }).waitFor()
      await poll(() => figure(page, 'range-clicks')).toBe('4')
      const topLink = page.getByRole('region', { name: 'Top links' }).getByRole('link', { name: /spring-e2e/ })
      await poll(() => page.getByRole('region', { name: 'Top links' }).getByRole('listitem').first().textContent()).toContain('4 clicks')
      await screenshotAtEveryWidth(page, name, 'analytics-workspace', page.url(), (shown) => shown.getByRole('button', { name: 'Remove filter Referrer: twitter.com' }).waitFor())
      // A top link opens its own statistics under the same view.
      await topLink.click()
      await page.waitForURL((address) => address.pathname === `/app/links/${id}/analytics`)
      await page.getByRole('link', { name: 'Edit link' }).waitFor()
      await page.getByRole('button', { name: 'Remove filter Referrer: twitter.com' }).waitFor()
      await poll(() => figure(page, 'range-clicks')).toBe('4')
      expect(new URL(page.url()).pathname).toBe(`/app/links/${id}/analytics`)

      // The overview counts the workspace's last hour live too.
      await screenshotAtEveryWidth(page, name, 'overview-live', `${d.publicUrl}/app/`, (shown) => poll(() => shown.getByTestId('live-clicks').textContent()).toBe('8'))

      // The workspace's time zone, set on the account page and named on the statistics page.
      await page.goto(`${d.publicUrl}/app/account`)
      const zone = page.getByLabel('Statistics time zone')
      await poll(() => zone.inputValue()).toBe('UTC')
      await zone.selectOption('Europe/Berlin')
      await page.getByRole('button', { name: 'Save time zone' }).click()
      await page.getByText('Statistics now count in Europe/Berlin.').waitFor()
      expect((await d.api<{ data: { timezone: string } }>('GET', '/api/account/settings')).body.data.timezone).toBe('Europe/Berlin')
      await screenshotAtEveryWidth(page, name, 'account-time-zone', `${d.publicUrl}/app/account`, async (shown) => poll(() => shown.getByLabel('Statistics time zone').inputValue()).toBe('Europe/Berlin'))

      await page.goto(`${d.publicUrl}/app/links/${id}/analytics`)
      await poll(() => page.getByTestId('time-zone-note').textContent()).toContain('Europe/Berlin')
      // The days are Berlin's now (the range's edges moved by its offset): the page shows the API's answer for the same view.
      const berlin = await d.api<{ data: { clicks: number; timeZone: string } }>('GET', `/api/url/${id}/stats?granularity=day`)
      expect(berlin.body.data.timeZone).toBe('Europe/Berlin')
      await poll(() => figure(page, 'range-clicks')).toBe(String(berlin.body.data.clicks))
    }, { TRUSTED_PROXIES: '127.0.0.1' })
  })
})
