// Requests as the dashboard makes them: the session cookie, and on unsafe methods the Origin and
// the X-Linkwell-CSRF header the API gate asks of cookie-borne requests.
import type { App } from '../../src/http/app-instance.js'
import { PUBLIC_URL, withJsonData, type ApiResponse } from './test-app.js'

/** The headers the dashboard sends with every unsafe request. */
export const DASHBOARD_HEADERS = { origin: PUBLIC_URL, 'x-linkwell-csrf': '1' }

/** `name=value` of the session cookie an answer set, or undefined. */
export function sessionCookieOf(response: { headers: Record<string, unknown> }): string | undefined {
  const header = response.headers['set-cookie']
  const cookies = Array.isArray(header) ? header : header === undefined ? [] : [String(header)]
  const session = cookies.find((cookie: string) => /linkwell_session=[^;]+/.test(cookie))
  return session?.split(';', 1)[0]
}

async function send(app: App, method: string, url: string, body: unknown, headers: Record<string, string>): Promise<ApiResponse> {
  const response = await app.inject({
    method: method as 'GET',
    url,
    headers: { 'content-type': 'application/json', ...headers },
    ...(body === undefined ? {} : { payload: JSON.stringify(body) }),
  })
  return withJsonData(response)
}

/** POST /api/auth/login as the dashboard does; `headers` replace or add to the dashboard's. */
export function signIn(app: App, login: string, password: string, headers: Record<string, string> = {}): Promise<ApiResponse> {
  return send(app, 'POST', '/api/auth/login', { login, password }, { ...DASHBOARD_HEADERS, 'user-agent': 'Mozilla/5.0 (X11; Linux x86_64) Firefox/125.0', ...headers })
}

export type DashboardClient = (method: string, url: string, body?: unknown, headers?: Record<string, string>) => Promise<ApiResponse>

/** A client for one session cookie (`name=value`), sending the dashboard's headers unless told otherwise. */
export function dashboardClient(app: App, cookie: string): DashboardClient {
  return (method, url, body, headers = {}) => send(app, method, url, body, { cookie, ...DASHBOARD_HEADERS, ...headers })
}

/** Signs in and answers a client for the new session; fails the test when signing in fails. */
export async function signedInClient(app: App, login: string, password: string): Promise<{ client: DashboardClient; cookie: string }> {
  const response = await signIn(app, login, password)
  const cookie = sessionCookieOf(response)
  if (response.statusCode !== 200 || !cookie) throw new Error(`sign-in failed: ${response.statusCode} ${response.body}`)
  return { client: dashboardClient(app, cookie), cookie }
}
