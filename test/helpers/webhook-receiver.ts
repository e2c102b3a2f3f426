// A local webhook receiver: an HTTP server on 127.0.0.1 that keeps every request it gets and
// answers as the test says: 200, 503 (down), a redirect, or nothing at all (hanging).
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import { eventually } from './eventually.js'

export interface ReceivedRequest {
  method: string
  path: string
  headers: Record<string, string>
  body: string
  /** The parsed JSON body. */
  event: { id: string; type: string; timestamp: string; workspace: number; data: any }
}

export type ReceiverMode = 'ok' | 'down' | 'redirect' | 'hang'

export interface WebhookReceiver {
  url: string
  /** Requests answered 2xx (what was delivered), in arrival order. */
  delivered: ReceivedRequest[]
  /** Every request, whatever the answer. */
  all: ReceivedRequest[]
  mode: ReceiverMode
  /** How long each answer waits (a slow receiver). */
  delayMs: number
  /** Resolves once `count` requests were delivered (2xx), or rejects after `timeoutMs`. */
  waitForDelivered(count: number, timeoutMs?: number): Promise<ReceivedRequest[]>
  /** Resolves once `count` requests arrived (any answer). */
  waitForRequests(count: number, timeoutMs?: number): Promise<ReceivedRequest[]>
  close(): Promise<void>
}

export async function startWebhookReceiver(mode: ReceiverMode = 'ok'): Promise<WebhookReceiver> {
  const held: http.ServerResponse[] = []
  const receiver: WebhookReceiver = {
    url: '',
    delivered: [],
    all: [],
    mode,
    delayMs: 0,
    async waitForDelivered(count, timeoutMs = 20_000) {
      await eventually(() => receiver.delivered.length, (delivered) => delivered >= count, { timeoutMs, intervalMs: 20 })
      return receiver.delivered
    },
    async waitForRequests(count, timeoutMs = 20_000) {
      await eventually(() => receiver.all.length, (arrived) => arrived >= count, { timeoutMs, intervalMs: 20 })
      return receiver.all
    },
    close: () =>
      new Promise((resolve) => {
        for (const response of held) response.destroy()
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  }
  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = []
    request.on('data', (chunk: Buffer) => chunks.push(chunk))
    request.on('end', async () => {
      const body = Buffer.concat(chunks).toString('utf8')
      const headers = Object.fromEntries(Object.entries(request.headers).map(([name, value]) => [name, String(value)]))
      const received: ReceivedRequest = { method: request.method ?? '', path: request.url ?? '', headers, body, event: JSON.parse(body) }
      receiver.all.push(received)
      if (receiver.delayMs > 0) await new Promise((resolve) => setTimeout(resolve, receiver.delayMs))
      switch (receiver.mode) {
        case 'ok':
          receiver.delivered.push(received)
          response.writeHead(200, { 'content-type': 'text/plain' }).end('thanks')
          return
        case 'down':
          response.writeHead(503, { 'content-type': 'text/plain' }).end('down for maintenance')
          return
        case 'redirect':
          response.writeHead(302, { location: `${receiver.url}/elsewhere` }).end()
          return
        case 'hang':
          held.push(response)
      }
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()))
  receiver.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  return receiver
}
