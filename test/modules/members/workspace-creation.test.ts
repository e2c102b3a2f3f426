// Who creates workspaces (issue 36, ADR 029): each is a fresh plan quota and rate-limit bucket on
// the main domain, so by default only the instance's administrators make them; with
// WORKSPACE_CREATION=anyone every person may, up to WORKSPACE_CREATION_LIMIT owned workspaces.
// Refusals are 403s that say why, and GET /api/workspaces tells the dashboard whether to offer it.
import { describe, expect, it } from 'vitest'
import { signedInClient } from '../../helpers/dashboard-client.js'
import { createMember } from '../../helpers/factories.js'
import { apiClient, createAccount, useTestApp } from '../../helpers/test-app.js'

const PASSWORD = 'workspace creation password'
const ADMINS_ONLY = { error: 1, code: 'forbidden', message: 'Only the instance\'s administrators can create workspaces on this server.' }

describe('by default, administrators create workspaces', () => {
  const { context } = useTestApp()

  it('refuses a person who is no administrator, viewer or owner, by session and by key', async () => {
    const owner = await createAccount(context, { password: PASSWORD })
    const { client } = await signedInClient(context.app, owner.username, PASSWORD)
    const refused = await client('POST', '/api/workspace/add', { name: `${owner.username}-more` })
    expect(refused.statusCode).toBe(403)
    expect(refused.data).toEqual(ADMINS_ONLY)
    expect((await client('GET', '/api/workspaces')).data.data.cancreate).toBe(false)
    expect((await apiClient(context.app, owner.apiKey)('POST', '/api/workspace/add', { name: `${owner.username}-key` })).data).toEqual(ADMINS_ONLY)

    // A viewer of the administration's workspace administers nothing either.
    const admin = await createAccount(context, { isAdmin: true })
    const viewer = await createMember(context, admin, 'viewer', PASSWORD)
    const { client: asViewer } = await signedInClient(context.app, viewer.username, PASSWORD)
    expect((await asViewer('POST', '/api/workspace/add', { name: `${viewer.username}-ws` })).data).toEqual(ADMINS_ONLY)
    expect((await asViewer('GET', '/api/workspaces')).data.data.cancreate).toBe(false)
  })

  it('lets an owner of the administration\'s workspace create as many as they need', async () => {
    const admin = await createAccount(context, { isAdmin: true, password: PASSWORD })
    const { client } = await signedInClient(context.app, admin.username, PASSWORD)
    expect((await client('GET', '/api/workspaces')).data.data.cancreate).toBe(true)
    for (const suffix of ['a', 'b', 'c', 'd']) {
      const created = await client('POST', '/api/workspace/add', { name: `${admin.username}-${suffix}` })
      expect(created.statusCode, created.body).toBe(201)
    }
    expect((await client('GET', '/api/workspaces')).data.data).toMatchObject({ cancreate: true, workspaces: expect.arrayContaining([expect.objectContaining({ name: `${admin.username}-d`, role: 'owner' })]) })
  })
})

describe('WORKSPACE_CREATION=anyone', () => {
  const { context } = useTestApp({ env: { WORKSPACE_CREATION: 'anyone', WORKSPACE_CREATION_LIMIT: '2' } })

  it('lets any person own up to the limit, then refuses with the limit in the message', async () => {
    const owner = await createAccount(context, { password: PASSWORD })
    const viewer = await createMember(context, owner, 'viewer', PASSWORD)
    const { client } = await signedInClient(context.app, viewer.username, PASSWORD)
    expect((await client('GET', '/api/workspaces')).data.data.cancreate).toBe(true)
    expect((await client('POST', '/api/workspace/add', { name: `${viewer.username}-1` })).statusCode).toBe(201)
    expect((await client('POST', '/api/workspace/add', { name: `${viewer.username}-2` })).statusCode).toBe(201)
    const refused = await client('POST', '/api/workspace/add', { name: `${viewer.username}-3` })
    expect(refused.statusCode).toBe(403)
    expect(refused.data).toEqual({ error: 1, code: 'forbidden', message: 'You already own 2 workspaces, the most this server allows (2): delete one first, or ask an administrator.' })
    expect((await client('GET', '/api/workspaces')).data.data.cancreate).toBe(false)
    // The owner's own workspace counts against theirs.
    const { client: asOwner } = await signedInClient(context.app, owner.username, PASSWORD)
    expect((await asOwner('POST', '/api/workspace/add', { name: `${owner.username}-1` })).statusCode).toBe(201)
    expect((await asOwner('POST', '/api/workspace/add', { name: `${owner.username}-2` })).statusCode).toBe(403)
  })
})
