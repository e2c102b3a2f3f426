// The path the image's health check asks (Dockerfile HEALTHCHECK, and compose.yaml, which repeats
// it) answers 200 on the real app, on each database. The check's script itself is exercised in
// deploy-files.unit.test.ts, against a stub server.
import { describe, expect, it } from 'vitest'
import { healthCheckCommand, healthCheckPath, readDockerfile, readRepositoryFile } from './deploy-files.js'
import { useTestApp } from '../helpers/test-app.js'

describe('the image\'s health check', () => {
  const { context } = useTestApp()

  it('asks a path that answers 200 while the database answers', async () => {
    const path = healthCheckPath(healthCheckCommand(readDockerfile(readRepositoryFile('Dockerfile'))))
    const response = await context.app.inject({ method: 'GET', url: path })
    expect(response.statusCode).toBe(200)
    expect(response.json()).toMatchObject({ status: 'ok', database: 'ok' })
  })
})
