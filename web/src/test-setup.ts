// Component tests: a clean DOM after each test, a person's input that ends with its test, and the
// network answered by the test itself. openapi-fetch keeps the fetch it was created with, so the
// stand-in is installed before any module creates the client, and each test says what the server
// answers (`answerWith`).
import { cleanup, configure } from '@testing-library/react'
import userEvent, { type UserEvent } from '@testing-library/user-event'
import { afterEach, onTestFinished } from 'vitest'

// findBy… and waitFor wait for what a test cannot await (a render after a fetch); their default of
// one second is a speed the machine must reach, which it does not while browser walks run beside
// (a links page test failed so). A find that succeeds returns at once; only a failing one waits.
configure({ asyncUtilTimeout: 15_000 })

/**
 * userEvent for the test that calls it. A test that times out is not stopped: it runs on beside the
 * next one, and its keystrokes go to whatever has the focus, which is then the next test's first
 * field (one such test made the next two fail). This one's input stops with an error once its test
 * has ended: at the start of a call, and before each keystroke and pointer action.
 */
export function setupUser(): UserEvent {
  let ended = false
  onTestFinished(() => {
    ended = true
  })
  const stopIfEnded = () => {
    if (ended) throw new Error('This test has ended (it timed out?): its input stops here.')
  }
  const user = userEvent.setup({
    // user-event waits its delay (0 ms) before each keystroke and pointer action, and has this
    // advance the clock meanwhile. Checked at the end of the same wait, right before the action:
    // checked at its start, the test could end during the wait and the action still go ahead.
    advanceTimers: async (delay) => {
      await new Promise((resolve) => setTimeout(resolve, delay))
      stopIfEnded()
    },
  })
  return new Proxy(user, {
    get(target, key) {
      const value = Reflect.get(target, key) as unknown
      if (typeof value !== 'function') return value
      return (...args: unknown[]) => {
        stopIfEnded()
        return (value as (...args: unknown[]) => unknown).apply(target, args)
      }
    },
  })
}

/**
 * Puts `text` in `field` as a paste does, in one input event, in place of what it held. A keystroke
 * re-renders the whole form: typing a long text into a big form took seconds on a busy machine.
 * A test types character by character (`user.type`) where the keystrokes are what it checks.
 */
export async function fill(user: UserEvent, field: HTMLElement, text: string): Promise<void> {
  await user.clear(field)
  await user.paste(text)
}

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
