// The browser of the end-to-end tests resolves no name but the machine's own (harness.ts,
// NO_DNS_BUT_LOOPBACK): a name every machine that ran `npm ci` resolves is answered "not resolved"
// by Chromium itself, while pages on loopback load.
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { hasChromium, useBrowser } from './harness.js'

describe.skipIf(!hasChromium)('the test browser and DNS', () => {
  const { browser } = useBrowser()
  let server: http.Server
  beforeAll(async () => {
    server = http.createServer((_, response) => response.end('<title>loopback</title>'))
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  })
  afterAll(() => new Promise((resolve) => server.close(resolve)))

  it('loads pages on loopback and resolves no other name', async () => {
    const page = await browser().newPage()
    try {
      const { port } = server.address() as AddressInfo
      for (const host of ['127.0.0.1', 'localhost']) {
        await page.goto(`http://${host}:${port}/`)
        expect(await page.title()).toBe('loopback')
      }
      await expect(page.goto('http://registry.npmjs.org/')).rejects.toThrow('net::ERR_NAME_NOT_RESOLVED')
    } finally {
      await page.close()
    }
  })
})
