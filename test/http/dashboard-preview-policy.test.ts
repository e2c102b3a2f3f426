// The dashboard's Content-Security-Policy as the previews of splash pages and overlays need it:
// they are srcdoc frames, which inherit the dashboard's policy, so what the visitor's page uses
// (inline styles, http and https images) must be allowed, and scripts still must not be.
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createTestApp, type TestContext } from '../helpers/test-app.js'

describe('the dashboard policy and the visitor-page previews', () => {
  let context: TestContext
  let folder: string

  beforeAll(async () => {
    folder = fs.mkdtempSync(path.join(os.tmpdir(), 'linkwell-dashboard-'))
    fs.writeFileSync(path.join(folder, 'index.html'), '<!doctype html><title>dashboard</title>')
    context = await createTestApp({ env: { DASHBOARD_DIR: folder } })
  })
  afterAll(async () => {
    await context.close()
    fs.rmSync(folder, { recursive: true, force: true })
  })

  function directives(policy: string): Map<string, string[]> {
    return new Map(policy.split(';').map((part) => part.trim().split(/\s+/)).map(([name, ...values]) => [name!, values]))
  }

  it('lets the preview frame show the visitor page\'s inline styles and http(s) images, and no script', async () => {
    const response = await context.app.inject({ method: 'GET', url: '/app/splash/new' })
    expect(response.statusCode).toBe(200)
    const policy = directives(String(response.headers['content-security-policy']))
    expect(policy.get('style-src')).toContain("'unsafe-inline'")
    expect(policy.get('img-src')).toEqual(expect.arrayContaining(['https:', 'http:', 'data:']))
    expect(policy.get('script-src')).toEqual(["'self'"])
    // srcdoc frames need no frame-src; nothing else may be framed.
    expect(policy.get('default-src')).toEqual(["'self'"])
    expect(policy.has('frame-src')).toBe(false)
  })
})
