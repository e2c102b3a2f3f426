// One attempt of a delivery: signed the Standard Webhooks way (checked with the reference library),
// private and loopback targets refused at delivery time unless allowed, redirects not followed,
// and an attempt that gets no answer given up after its timeout.
import http from 'node:http'
import type { AddressInfo, Socket } from 'node:net'
import { Webhook } from 'standardwebhooks'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createWebhookSender } from '../../../src/modules/webhooks/webhook-sender.js'
import { newWebhookSecret, signatureHeaders } from '../../../src/modules/webhooks/webhook-signature.js'
import { startWebhookReceiver, type WebhookReceiver } from '../../helpers/webhook-receiver.js'

const BODY = JSON.stringify({ id: 'evt_test', type: 'link.created', timestamp: '2026-01-01T00:00:00.000Z', workspace: 1, data: { id: 7, emoji: 'ünï ✓' } })

describe('webhook signatures', () => {
  it('are verified by the standardwebhooks library, and refused once the body or the secret differ', () => {
    const secret = newWebhookSecret()
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/)
    const headers = signatureHeaders(secret, 'evt_test', new Date(), BODY)
    expect(Object.keys(headers).sort()).toEqual(['webhook-id', 'webhook-signature', 'webhook-timestamp'])
    expect(headers['webhook-id']).toBe('evt_test')
    expect(new Webhook(secret).verify(BODY, headers)).toEqual(JSON.parse(BODY))
    expect(() => new Webhook(secret).verify(BODY.replace('7', '8'), headers)).toThrow()
    expect(() => new Webhook(newWebhookSecret()).verify(BODY, headers)).toThrow()
  })
})

describe('a delivery attempt', () => {
  let receiver: WebhookReceiver
  beforeAll(async () => {
    receiver = await startWebhookReceiver()
  })
  afterAll(() => receiver.close())

  const headers = { 'webhook-id': 'evt_test', 'webhook-timestamp': '1', 'webhook-signature': 'v1,x' }

  it('posts the body with its headers to an allowed target and reports the answer', async () => {
    receiver.mode = 'ok'
    const before = receiver.all.length
    const result = await createWebhookSender({ allowPrivate: true })(`${receiver.url}/hook?x=1`, headers, BODY)
    expect(result).toMatchObject({ ok: true, status: 200, body: 'thanks', error: null })
    expect(result.ms).toBeGreaterThanOrEqual(0)
    const [request] = receiver.all.slice(before)
    expect(request).toMatchObject({ method: 'POST', path: '/hook?x=1', body: BODY })
    expect(request!.headers).toMatchObject({ ...headers, 'content-type': 'application/json' })
  })

  it('refuses loopback, private and link-local targets (literal or resolved) unless allowed, sending nothing', async () => {
    receiver.mode = 'ok'
    const before = receiver.all.length
    const strict = createWebhookSender({ allowPrivate: false, resolveHost: async (host) => [{ address: host === 'inside.test' ? '10.1.2.3' : '169.254.169.254', family: 4 }] })
    for (const target of [receiver.url, 'http://inside.test/hook', 'http://metadata.test/latest', 'http://[::1]:9/hook']) {
      const result = await strict(target, headers, BODY)
      expect(result.ok).toBe(false)
      expect(result.status).toBeNull()
      expect(result.error).toMatch(/resolves to a private, local or reserved address/)
    }
    expect(receiver.all.length).toBe(before)
  })

  it('does not follow a redirect: the attempt fails with the status', async () => {
    receiver.mode = 'redirect'
    const before = receiver.all.length
    const result = await createWebhookSender({ allowPrivate: true })(`${receiver.url}/hook`, headers, BODY)
    expect(result).toMatchObject({ ok: false, status: 302, error: 'the server answered HTTP 302 (redirects are not followed)' })
    expect(receiver.all.slice(before).map((request) => request.path)).toEqual(['/hook'])
  })

  it('keeps the connection for the next attempt to the same address, and sends again on a new one when the server closed a kept one', async () => {
    const answered = new Map<Socket, number>()
    const bodies: string[] = []
    const server = http.createServer((request, response) => {
      const count = (answered.get(request.socket) ?? 0) + 1
      answered.set(request.socket, count)
      const chunks: Buffer[] = []
      request.on('data', (chunk: Buffer) => chunks.push(chunk))
      request.on('end', () => {
        bodies.push(Buffer.concat(chunks).toString('utf8'))
        // The third request on a connection: closed without an answer, as a server ending an idle connection does.
        if (count === 3) request.socket.destroy()
        else response.writeHead(200).end('ok')
      })
    })
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    try {
      const target = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`
      const send = createWebhookSender({ allowPrivate: true })
      expect((await send(target, headers, BODY)).ok).toBe(true)
      expect((await send(target, headers, Buffer.from(BODY))).ok).toBe(true)
      expect(answered.size).toBe(1)
      const again = await send(target, headers, BODY)
      expect(again).toMatchObject({ ok: true, status: 200, body: 'ok' })
      expect([...answered.values()]).toEqual([3, 1])
      expect(bodies).toEqual([BODY, BODY, BODY, BODY])
    } finally {
      server.closeAllConnections()
      await new Promise((resolve) => server.close(resolve))
    }
  })

  it('gives up on a target that does not answer within the timeout, and on other schemes', async () => {
    receiver.mode = 'hang'
    const result = await createWebhookSender({ allowPrivate: true, timeoutMs: 300 })(`${receiver.url}/hook`, headers, BODY)
    expect(result).toMatchObject({ ok: false, status: null, error: 'no answer within 0.3 s' })
    expect(result.ms).toBeGreaterThanOrEqual(290)
    expect((await createWebhookSender({ allowPrivate: true })('ftp://example.com/x', headers, BODY)).error).toBe('only http and https addresses are allowed')
    // A name whose look-up never ends counts against the same deadline.
    const stuck = createWebhookSender({ allowPrivate: true, timeoutMs: 200, resolveHost: () => new Promise(() => undefined) })
    expect((await stuck('http://slow-dns.test/hook', headers, BODY)).error).toBe('no answer within 0.2 s')
  })
})
