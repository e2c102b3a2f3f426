// The workspace's people as the dashboard reads them: members and pending invitations, and the
// signed-in person's workspaces with their role in each (the current one's role says which
// actions the pages offer).
import { useQuery } from '@tanstack/react-query'
import { api, unwrap } from '../api/client'
import type { paths } from '../api/schema'

export type Role = paths['/api/members']['get']['responses'][200]['content']['application/json']['data']['members'][number]['role']
export type Member = paths['/api/members']['get']['responses'][200]['content']['application/json']['data']['members'][number]
export type Invitation = paths['/api/members']['get']['responses'][200]['content']['application/json']['data']['invitations'][number]
export type Workspace = paths['/api/workspaces']['get']['responses'][200]['content']['application/json']['data']['workspaces'][number]

export const membersQueryKey = ['members'] as const
export const workspacesQueryKey = ['workspaces'] as const

/** From the least to the most a role may do (the server's order, modules/accounts/roles.ts). */
export const ROLES: readonly Role[] = ['viewer', 'editor', 'admin', 'owner']

export const ROLE_LABELS: Record<Role, string> = { viewer: 'Viewer', editor: 'Editor', admin: 'Admin', owner: 'Owner' }

export const ROLE_DESCRIPTIONS: Record<Role, string> = {
  viewer: 'reads everything and its statistics, changes nothing',
  editor: 'creates, edits and deletes links, QR codes, bio pages and the rest',
  admin: 'also members, invitations, API keys and branded domains',
  owner: 'everything, the account and its plan included',
}

/** Whether `role` includes `needed`. */
export function roleAllows(role: Role | undefined, needed: Role): boolean {
  return role !== undefined && ROLES.indexOf(role) >= ROLES.indexOf(needed)
}

/** What an invitation's link offers (no credential needed); off once it is spent. A POST: the token stays out of URLs, and so of logs. */
export function useInvitationDetails(token: string, enabled: boolean) {
  return useQuery({ queryKey: ['invitation', token], queryFn: async () => (await unwrap(api.POST('/api/invitation/details', { body: { token } }))).data, retry: false, enabled: enabled && token !== '' })
}

export function useMembers() {
  return useQuery({ queryKey: membersQueryKey, queryFn: async () => (await unwrap(api.GET('/api/members'))).data })
}

// The role decides what the pages offer: read again when the page comes back into view, every
// 30 seconds while it is open, and after any refusal (AppShell), so a demotion shows at once.
const workspacesQuery = {
  queryKey: workspacesQueryKey,
  queryFn: async () => (await unwrap(api.GET('/api/workspaces'))).data,
  staleTime: 10_000,
  refetchOnWindowFocus: 'always',
  refetchInterval: 30_000,
} as const

/** The person's workspaces; `enabled` false until someone is signed in (nobody: nothing to ask). */
export function useWorkspaces(enabled = true) {
  return useQuery({ ...workspacesQuery, select: (data) => data.workspaces, enabled })
}

/** Whether the server lets the person create a workspace now (WORKSPACE_CREATION); false while loading. */
export function useCanCreateWorkspace(enabled = true): boolean {
  return useQuery({ ...workspacesQuery, select: (data) => data.cancreate === true, enabled }).data ?? false
}

/** The signed-in person's role in the current workspace (undefined while loading). */
export function useCurrentRole(): Role | undefined {
  return useWorkspaces().data?.find((workspace) => workspace.current)?.role
}

