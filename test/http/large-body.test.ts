// A body over BODY_LIMIT_BYTES sent over a real socket by clients that do not wait for
// `100 Continue`: each must read the 413 envelope (Fastify used to close the connection mid-upload,
// so Node's http client met EPIPE and never saw the answer), and the connection stays usable.
import { execFile } from 'node:child_process'
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import http from 'node:http'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { promisify } from 'node:util'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createAccount, createTestApp, type TestAccount, type TestContext } from '../helpers/test-app.js'

const run = promisify(execFile)
const LIMIT = 1024 * 1024
const BODY = Buffer.alloc(11 * 1024 * 1024, 'a')
const TOO_LARGE = { error: 1, message: 'The request body is too large.', code: 'body_too_large' }

interface Answer {
  status: number
  text: string
}

/**
 * Node's own client: writes the whole body at once, without Expect; `chunked` leaves Content-Length
 * out. Settles once the request is closed, failing if writing the body met any error (a reset
 * mid-upload is what clients used to get, sometimes before, sometimes after the answer).
 */
function sendWithNode(port: number, path: string, headers: http.OutgoingHttpHeaders, body: Buffer, agent: http.Agent, chunked = false): Promise<Answer> {
  return new Promise((resolve, reject) => {
    let answer: Answer | undefined
    let failure: Error | undefined
    const request = http.request({ host: '127.0.0.1', port, method: 'POST', path, agent, headers: chunked ? headers : { ...headers, 'content-length': body.length } }, (response) => {
      let text = ''
      response.setEncoding('utf8')
      response.on('data', (chunk: string) => (text += chunk))
      response.on('end', () => (answer = { status: response.statusCode ?? 0, text }))
    })
    request.on('error', (error) => (failure = error))
    request.on('close', () => {
      // The response's end and the request's close may come in either order.
      setImmediate(() => (failure ? reject(failure) : answer ? resolve(answer) : reject(new Error('closed without an answer'))))
    })
    if (chunked) {
      for (let at = 0; at < body.length; at += 64 * 1024) request.write(body.subarray(at, at + 64 * 1024))
      request.end()
    } else request.end(body)
  })
}

describe('a body over the limit, over a real connection', () => {
  let context: TestContext
  let owner: TestAccount
  let port: number

  beforeAll(async () => {
    context = await createTestApp({ env: { BODY_LIMIT_BYTES: String(LIMIT) } })
    owner = await createAccount(context)
    await context.app.listen({ host: '127.0.0.1', port: 0 })
    port = (context.app.server.address() as { port: number }).port
  })
  afterAll(() => context.close())

  const json = () => ({ 'content-type': 'application/json', authorization: `Bearer ${owner.apiKey}` })

  it('reaches Node\'s http client, with and without Content-Length, and the connection serves the next request', async () => {
    // A new connection each time (the refusal used to come before the upload ended on most of them).
    for (const chunked of [false, true, false, true, false, true]) {
      const answer = await sendWithNode(port, '/api/campaign/add', json(), BODY, new http.Agent({ keepAlive: false }), chunked)
      expect(answer.status).toBe(413)
      expect(JSON.parse(answer.text)).toEqual(TOO_LARGE)
    }
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 })
    try {
      for (const chunked of [false, true]) {
        const answer = await sendWithNode(port, '/api/campaign/add', json(), BODY, agent, chunked)
        expect(answer.status).toBe(413)
        expect(JSON.parse(answer.text)).toEqual(TOO_LARGE)
      }
      // The same socket (maxSockets 1) answers a normal request afterwards.
      const fits = await sendWithNode(port, '/api/campaign/add', json(), Buffer.from(JSON.stringify({ name: 'After the refusal' })), agent)
      expect(fits.status).toBe(201)
    } finally {
      agent.destroy()
    }
    const rows = await context.database.db.selectFrom('campaigns').select('name').where('account_id', '=', owner.id).execute()
    expect(rows).toEqual([{ name: 'After the refusal' }])
  })

  it('reaches undici (fetch)', async () => {
    for (let round = 0; round < 3; round += 1) {
      const response = await fetch(`http://127.0.0.1:${port}/api/campaign/add`, { method: 'POST', headers: json(), body: BODY })
      expect(response.status).toBe(413)
      expect(await response.json()).toEqual(TOO_LARGE)
    }
  })

  it('reaches curl, with Expect: 100-continue turned off and on', async () => {
    const folder = await mkdtemp(path.join(tmpdir(), 'linkwell-body-'))
    const file = path.join(folder, 'body.json')
    await writeFile(file, BODY)
    try {
      for (const expectHeader of ['Expect:', 'Expect: 100-continue']) {
        const { stdout } = await run('curl', [
          '-sS', '-X', 'POST', '--data-binary', `@${file}`, '-H', 'Content-Type: application/json',
          '-H', `Authorization: Bearer ${owner.apiKey}`, '-H', expectHeader, '-w', '\n%{http_code}',
          `http://127.0.0.1:${port}/api/campaign/add`,
        ])
        const [text, status] = stdout.split('\n')
        expect(status).toBe('413')
        expect(JSON.parse(text!)).toEqual(TOO_LARGE)
      }
    } finally {
      await rm(folder, { recursive: true, force: true })
    }
  })

  it('reaches a visitor\'s form post with the page, not a reset', async () => {
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 })
    try {
      const answer = await sendWithNode(port, '/some-alias', { 'content-type': 'application/x-www-form-urlencoded' }, BODY, agent)
      expect(answer.status).toBe(413)
      expect(answer.text).toContain('The form you sent is too large.')
    } finally {
      agent.destroy()
    }
  })
})
