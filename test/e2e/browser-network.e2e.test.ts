// The browser of the end-to-end tests resolves no name but the machine's own (harness.ts,
// NO_DNS_BUT_LOOPBACK): pages on loopback load, while a name every machine that ran `npm ci`
// resolves is answered "not resolved" by Chromium itself. Asked by a fetch of the page: a page
// whose own address is not resolved would have Chromium's error page ask a DNS server of its own.
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { hasChromium, useBrowser } from './harness.js'

const OUTSIDE = 'http://registry.npmjs.org/'

describe.skipIf(!hasChromium)('the test browser and DNS', () => {
  const { browser } = useBrowser()
  let server: http.Server
  beforeAll(async () => {
    server = http.createServer((_, response) => response.writeHead(200, { 'content-type': 'text/html', connection: 'close' }).end('<title>loopback</title>'))
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  })
  afterAll(() => new Promise((resolve) => server.close(resolve)))

  it('loads pages on loopback and resolves no other name', async () => {
    const page = await browser().newPage()
    try {
      const { port } = server.address() as AddressInfo
      for (const host of ['localhost', '127.0.0.1']) {
        await page.goto(`http://${host}:${port}/`)
        expect(await page.title()).toBe('loopback')
      }
      const failed = page.waitForEvent('requestfailed', { predicate: (request) => request.url() === OUTSIDE, timeout: 10_000 })
      // Awaited below; if the fetch's check fails first, its timeout is not an unhandled rejection.
      failed.catch(() => undefined)
      const fetched = await page.evaluate((url) => fetch(url, { mode: 'no-cors' }).then(() => 'answered', () => 'refused'), OUTSIDE)
      expect(fetched).toBe('refused')
      expect((await failed).failure()?.errorText).toBe('net::ERR_NAME_NOT_RESOLVED')
    } finally {
      await page.close()
    }
  })
})
