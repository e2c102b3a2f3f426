// A small closed-loop HTTP load generator: `concurrency` keep-alive loops for `seconds` (or until
// `maxRequests` are sent). Too slow to measure throughput (wrk does, see wrk.ts); used where every
// answer must be counted exactly and for setting up data.
import http from 'node:http'

export interface LoadResult {
  requests: number
  errors: number
  seconds: number
  perSecond: number
  statuses: Record<number, number>
}

export interface LoadOptions {
  /** Base URLs; requests go to them in turn (several instances behind a balancer). */
  targets: string[]
  path: string
  /** Fixed headers, or the headers of the n-th request. */
  headers?: Record<string, string> | ((n: number) => Record<string, string>)
  concurrency: number
  seconds: number
  /** Stop after this many requests (every one answered before the load returns). */
  maxRequests?: number
}

export async function runLoad(options: LoadOptions): Promise<LoadResult> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: options.concurrency * options.targets.length })
  const statuses: Record<number, number> = {}
  let requests = 0
  let errors = 0
  let turn = 0
  let sent = 0
  const headersOf = typeof options.headers === 'function' ? options.headers : () => options.headers as Record<string, string> | undefined
  const started = performance.now()
  const deadline = started + options.seconds * 1000

  const once = (base: string) =>
    new Promise<void>((resolve) => {
      const request = http.request(`${base}${options.path}`, { agent, headers: headersOf(sent++) }, (response) => {
        response.resume()
        response.on('end', () => {
          statuses[response.statusCode ?? 0] = (statuses[response.statusCode ?? 0] ?? 0) + 1
          requests += 1
          resolve()
        })
      })
      request.on('error', () => {
        errors += 1
        resolve()
      })
      request.end()
    })

  const loop = async () => {
    while (performance.now() < deadline && sent < (options.maxRequests ?? Number.POSITIVE_INFINITY)) {
      const target = options.targets[turn++ % options.targets.length]!
      await once(target)
    }
  }
  await Promise.all(Array.from({ length: options.concurrency }, loop))
  const seconds = (performance.now() - started) / 1000
  agent.destroy()
  return { requests, errors, seconds, perSecond: requests / seconds, statuses }
}
