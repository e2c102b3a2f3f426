// Component tests: a clean DOM after each test, and the network answered by the test itself.
// openapi-fetch keeps the fetch it was created with, so the stand-in is installed before any
// module creates the client, and each test says what the server answers (`answerWith`).
import { cleanup, configure } from '@testing-library/react'
import { afterEach } from 'vitest'

// findBy… and waitFor wait for what a test cannot await (a render after a fetch); their default of
// one second is a speed the machine must reach, which it does not while browser walks run beside
// (a links page test failed so). A find that succeeds returns at once; only a failing one waits.
configure({ asyncUtilTimeout: 15_000 })

type Handler = (request: Request) => Response | Promise<Response>

let handler: Handler = (request) => {
  throw new Error(`unexpected request in a test: ${request.method} ${request.url}`)
}

/** What the server answers for the rest of the test. */
export function answerWith(next: Handler): void {
  handler = next
}

/** A JSON response as the API writes it. */
export function json(status: number, body: unknown): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } })
}

// jsdom draws nothing: canvas answers no context, as in a browser that blocks it (charts then show
// only their table), instead of jsdom's "not implemented" error on every chart.
// (The API-types check runs in node, where there is no canvas at all.)
if (typeof HTMLCanvasElement !== 'undefined') {
  HTMLCanvasElement.prototype.getContext = (() => null) as typeof HTMLCanvasElement.prototype.getContext
}

globalThis.fetch = async (input: RequestInfo | URL, init?: RequestInit) => handler(input instanceof Request ? input : new Request(input, init))

afterEach(() => {
  cleanup()
  answerWith((request) => {
    throw new Error(`unexpected request in a test: ${request.method} ${request.url}`)
  })
})
