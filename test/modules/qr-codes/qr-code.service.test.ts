// Logos fetched from a URL, end to end: the service is built with a policy that lets it reach a
// local server (the app's own policy refuses 127.0.0.1), then the public image is decoded.
import { bindable } from '../../../src/db/transactions.js'
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import sharp from 'sharp'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { FULL_ACCESS } from '../../../src/modules/access/api-key-scopes.js'
import type { AuthenticatedAccount } from '../../../src/modules/access/authenticated-account.js'
import { createAliasRepository } from '../../../src/modules/aliases/alias.repository.js'
import { createAliasService } from '../../../src/modules/aliases/alias.service.js'
import { isPublicAddress } from '../../../src/core/address-policy.js'
import { createLogoLoader } from '../../../src/modules/qr-codes/logo-source.js'
import { createQrCodeRepository } from '../../../src/modules/qr-codes/qr-code.repository.js'
import { createQrCodeService, type QrCodeService } from '../../../src/modules/qr-codes/qr-code.service.js'
import { createAccount, createTestApp, PUBLIC_URL, type TestContext } from '../../helpers/test-app.js'
import { decodeQrImage, makeLogo, pixelAt } from './qr-test-support.js'

describe('QR codes with a logo fetched from a URL', () => {
  let context: TestContext
  let server: http.Server
  let base: string
  let account: AuthenticatedAccount
  let service: QrCodeService
  let requestsServed = 0
  const BLUE = { r: 20, g: 60, b: 220 }
  const GREEN = { r: 20, g: 160, b: 40 }

  beforeAll(async () => {
    const blue = await makeLogo({ color: BLUE, size: 600, format: 'jpeg' })
    const green = await makeLogo({ color: GREEN })
    server = http.createServer((request, response) => {
      requestsServed += 1
      if (request.url === '/blue.jpg') return response.writeHead(200, { 'content-type': 'image/jpeg' }).end(blue)
      if (request.url === '/green.png') return response.writeHead(200, { 'content-type': 'image/png' }).end(green)
      if (request.url === '/to-metadata') return response.writeHead(302, { location: 'http://169.254.169.254/latest/meta-data/' }).end()
      return response.writeHead(404).end()
    })
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`

    context = await createTestApp()
    const created = await createAccount(context)
    account = { id: created.id, username: created.username, email: created.email, isAdmin: false, isSuspended: false, apirate: null, limits: {}, keyId: 0, keyExpires: null, keyScope: FULL_ACCESS, personId: null, role: 'owner', via: 'api', address: null }
    service = createQrCodeService({
      qrCodes: bindable(createQrCodeRepository, context.database.db),
      publicUrl: PUBLIC_URL,
      tags: context.services.tags,
      // The real policy, plus our one local server.
      loadLogo: createLogoLoader({ uploadDir: '/nonexistent', fetch: { isAllowedAddress: (address) => address === '127.0.0.1' || isPublicAddress(address) } }),
      aliases: createAliasService({ namespace: createAliasRepository(context.database.db) }),
      journal: context.services.journal,
    })
  })
  afterAll(async () => {
    await context.close()
    await new Promise<void>((resolve) => server.close(() => resolve()))
  })

  it('fetches the logo once, stores it as a small PNG and composites it into the image', async () => {
    const served = requestsServed
    const qr = await service.createQrCode(account, { type: 'wifi', data: { ssid: 'Shop', pass: 'customers', encryption: 'WPA' }, logo: `${base}/blue.jpg` })
    expect(requestsServed).toBe(served + 1)
    expect(qr.logo_source).toBe(`${base}/blue.jpg`)
    const stored = await sharp(qr.logo!).metadata()
    expect([stored.format, stored.width, stored.height]).toEqual(['png', 256, 256])

    const image = await context.app.inject({ method: 'GET', url: `/qr/${qr.alias}` })
    expect(image.statusCode).toBe(200)
    expect(await decodeQrImage(image.rawPayload)).toBe('WIFI:T:WPA;S:Shop;P:customers;;')
    const [r, g, b] = await pixelAt(image.rawPayload, 150, 150)
    // JPEG: close to the color, not exact.
    expect(Math.abs(r - BLUE.r) + Math.abs(g - BLUE.g) + Math.abs(b - BLUE.b)).toBeLessThan(30)

    // Drawing the image never asks the logo's server again.
    expect((await context.app.inject({ method: 'GET', url: `/qr/${qr.alias}?size=500&format=svg` })).statusCode).toBe(200)
    expect(requestsServed).toBe(served + 1)
  })

  it('replaces the logo on update', async () => {
    const qr = await service.createQrCode(account, { type: 'text', data: 'swap', logo: `${base}/blue.jpg` })
    const updated = await service.updateQrCode(account, qr.id, { data: 'swapped', logo: `${base}/green.png` })
    expect(updated.logo_source).toBe(`${base}/green.png`)
    const image = await context.app.inject({ method: 'GET', url: `/qr/${qr.alias}` })
    expect(await decodeQrImage(image.rawPayload)).toBe('swapped')
    expect(await pixelAt(image.rawPayload, 150, 150)).toEqual([GREEN.r, GREEN.g, GREEN.b])
  })

  it('refuses a redirect to a refused address and creates nothing', async () => {
    const before = await context.database.db.selectFrom('qr_codes').select((eb) => eb.fn.countAll<number>().as('count')).executeTakeFirstOrThrow()
    await expect(service.createQrCode(account, { type: 'text', data: 'x', logo: `${base}/to-metadata` })).rejects.toThrow(
      'The logo could not be fetched: the host 169.254.169.254 resolves to a private, local or reserved address.',
    )
    await expect(service.createQrCode(account, { type: 'text', data: 'x', logo: `${base}/missing.png` })).rejects.toThrow('the server answered HTTP 404')
    const after = await context.database.db.selectFrom('qr_codes').select((eb) => eb.fn.countAll<number>().as('count')).executeTakeFirstOrThrow()
    expect(Number(after.count)).toBe(Number(before.count))
  })
})
