// An invitation's token stays out of what is logged and works only for its addressee (issue 36):
// the link carries it in the fragment (never sent to the server), the details are asked with a
// POST body, any URL that still carries one (an old link, an old client's query) is logged
// redacted, and a signed-in person whose e-mail differs is refused.
import { describe, expect, it } from 'vitest'
import { redactUrl } from '../../../src/logger.js'
import { capturedLogger } from '../../helpers/captured-logger.js'
import { DASHBOARD_HEADERS, signedInClient } from '../../helpers/dashboard-client.js'
import { apiClient, createAccount, PUBLIC_URL, useTestApp, withJsonData } from '../../helpers/test-app.js'

const PASSWORD = 'invitation token password'
const { logger, lines } = capturedLogger('info')

describe('invitation tokens', () => {
  const { context } = useTestApp({ env: { LOG_LEVEL: 'info' }, logger })

  async function invite(email: string) {
    const team = await createAccount(context)
    const invited = await apiClient(context.app, team.apiKey)('POST', '/api/member/invite', { email, role: 'editor' })
    expect(invited.statusCode).toBe(201)
    return { team, url: invited.data.url as string }
  }

  const post = async (url: string, body: unknown, headers: Record<string, string> = DASHBOARD_HEADERS) =>
    withJsonData(await context.app.inject({ method: 'POST', url, headers: { 'content-type': 'application/json', ...headers }, payload: JSON.stringify(body) }))

  it('puts the token in the link\'s fragment, and answers its details to a POST from the dashboard', async () => {
    const { team, url } = await invite('fragment@example.com')
    expect(url).toMatch(new RegExp(`^${PUBLIC_URL}/app/invitation#[A-Za-z0-9_-]{43}$`))
    const token = url.split('#')[1]!
    const details = await post('/api/invitation/details', { token })
    expect(details.statusCode, details.body).toBe(200)
    expect(details.data.data).toMatchObject({ workspace: team.username, email: 'fragment@example.com', role: 'editor' })
    // Like signing in: another site cannot make a browser ask.
    expect((await post('/api/invitation/details', { token }, {})).statusCode).toBe(403)
    expect((await post('/api/invitation/details', {})).data).toMatchObject({ code: 'validation_failed', field: 'token' })
  })

  it('logs no token, whether it comes in an old link\'s path, a query string or a body', async () => {
    const { url } = await invite('logged@example.com')
    const token = url.split('#')[1]!
    lines.length = 0
    await context.app.inject({ method: 'GET', url: `/app/invitation/${token}` })
    await context.app.inject({ method: 'GET', url: `/app/%69nvitation/${token}?from=mail` })
    await context.app.inject({ method: 'GET', url: `/api/invitation/details?token=${token}` })
    await context.app.inject({ method: 'GET', url: `/api/invitation/details?%74oken=${token}&x=1` })
    await post('/api/invitation/details', { token })
    const logged = lines.map((line) => JSON.stringify(line))
    expect(logged.filter((line) => line.includes('incoming request')).length).toBeGreaterThanOrEqual(5)
    expect(logged.filter((line) => line.includes(token))).toEqual([])
  })

  it('redacts the invitation segment and the token parameter of any URL it is given', () => {
    expect(redactUrl('/app/invitation/abc?x=1')).toBe('/app/invitation/[redacted]?x=1')
    expect(redactUrl('/api/invitation/details?token=abc&page=2')).toBe('/api/invitation/details?token=[redacted]&page=2')
    expect(redactUrl('/%61pp/invitation/abc')).toBe('/%61pp/invitation/[redacted]')
    expect(redactUrl('/api/invitation/5/delete')).toBe('/api/invitation/5/delete')
    expect(redactUrl('/api/urls?page=2')).toBe('/api/urls?page=2')
  })

  it('refuses a signed-in person whose e-mail is not the one invited, and lets the addressee in', async () => {
    const { team, url } = await invite('addressee@example.com')
    const token = url.split('#')[1]!
    const stranger = await createAccount(context, { password: PASSWORD })
    const { cookie } = await signedInClient(context.app, stranger.username, PASSWORD)
    const refused = await post('/api/invitation/accept', { token }, { ...DASHBOARD_HEADERS, cookie })
    expect(refused.statusCode).toBe(403)
    expect(refused.data).toEqual({ error: 1, code: 'forbidden', message: 'This invitation was sent to another e-mail address than yours: sign in as the person it was sent to, or sign out and join as a new person.' })

    const addressee = await createAccount(context, { password: PASSWORD, email: 'Addressee@Example.com' })
    const { cookie: addresseeCookie } = await signedInClient(context.app, addressee.username, PASSWORD)
    const joined = await post('/api/invitation/accept', { token }, { ...DASHBOARD_HEADERS, cookie: addresseeCookie })
    expect(joined.statusCode, joined.body).toBe(200)
    expect(joined.data.data).toMatchObject({ id: team.id })
  })
})
