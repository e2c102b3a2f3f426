// The workspace's people as the dashboard reads them: members and pending invitations, and the
// signed-in person's workspaces with their role in each (the current one's role says which
// actions the pages offer); inviting, changing and removing members, and the workspaces' writes.
import { useQuery } from '@tanstack/react-query'
import { useEffect } from 'react'
import { api, onRefused, unwrap } from '../api/client'
import { queryKeys } from '../api/query-keys'
import type { paths } from '../api/schema'
import { useRefresh, useWrite } from '../api/write-queries'

export type Role = paths['/api/members']['get']['responses'][200]['content']['application/json']['data']['members'][number]['role']
export type Member = paths['/api/members']['get']['responses'][200]['content']['application/json']['data']['members'][number]
export type Invitation = paths['/api/members']['get']['responses'][200]['content']['application/json']['data']['invitations'][number]
export type Workspace = paths['/api/workspaces']['get']['responses'][200]['content']['application/json']['data']['workspaces'][number]

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
  return useQuery({ queryKey: queryKeys.members.invitation(token), queryFn: async () => (await unwrap(api.POST('/api/invitation/details', { body: { token } }))).data, retry: false, enabled: enabled && token !== '' })
}

export function useMembers() {
  return useQuery({ queryKey: queryKeys.members.all, queryFn: async () => (await unwrap(api.GET('/api/members'))).data })
}

// The role decides what the pages offer: read again when the page comes back into view, every
// 30 seconds while it is open, and after any refusal (AppShell), so a demotion shows at once.
const workspacesQuery = {
  queryKey: queryKeys.members.workspaces,
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


/** A refusal (403) may mean the role changed meanwhile: the workspaces, and so the role, are read again (the shell listens). */
export function useRoleRefreshOnRefusal(): void {
  const refresh = useRefresh()
  useEffect(() => onRefused(() => void refresh([queryKeys.members.workspaces])), [refresh])
}

/** Invites someone with a role; answers the invitation's link, and whether it was mailed. */
export function useInvite() {
  return useWrite({ send: (body: { email: string; role: Role }) => unwrap(api.POST('/api/member/invite', { body })), refreshes: [queryKeys.members.all] })
}

// A refused change or withdrawal may mean the list is out of date (another admin's change): it is read again either way.
export function useChangeRole() {
  return useWrite({
    send: ({ id, role }: { id: number; role: Role }) => unwrap(api.PUT('/api/member/{id}/update', { params: { path: { id } }, body: { role } })),
    refreshes: [queryKeys.members.all],
    refreshAfterRefusal: true,
  })
}

export function useWithdrawInvitation() {
  return useWrite({ send: (id: number) => unwrap(api.DELETE('/api/invitation/{id}/delete', { params: { path: { id } } })), refreshes: [queryKeys.members.all], refreshAfterRefusal: true })
}

export function useRemoveMember() {
  return useWrite({ send: (id: number) => unwrap(api.DELETE('/api/member/{id}/delete', { params: { path: { id } } })), refreshes: [queryKeys.members.all] })
}

/**
 * Joins the invitation's workspace, as the person signed in (no `username`) or as a new person;
 * answers the account joined. The page leaves, then forgets the cache (account-queries.ts useForgetAll).
 */
export function useAcceptInvitation() {
  return useWrite({
    send: async (body: { token: string; username?: string; password?: string }) => (await unwrap(api.POST('/api/invitation/accept', { body }))).data,
    refreshes: [],
  })
}

/**
 * The session's workspace becomes another one (`id`). What is cached belongs to the workspace
 * left behind: the page moves on, then forgets it (account-queries.ts useForgetAll).
 */
export function useSwitchWorkspace() {
  return useWrite({ send: (id: number) => unwrap(api.PUT('/api/workspace/{id}/switch', { params: { path: { id } } })), refreshes: [] })
}

/** Creates a workspace and makes it the session's (the person is its owner); the page then forgets the cache as for a switch. */
export function useCreateWorkspace() {
  return useWrite({
    send: async (name: string) => {
      const created = await unwrap(api.POST('/api/workspace/add', { body: { name } }))
      await unwrap(api.PUT('/api/workspace/{id}/switch', { params: { path: { id: created.id } } }))
      return created
    },
    refreshes: [],
  })
}

/** Deletes the workspace with everything in it; the session moves to another of the person's workspaces. */
export function useDeleteWorkspace() {
  return useWrite({ send: (id: number) => unwrap(api.DELETE('/api/workspace/{id}/delete', { params: { path: { id } } })), refreshes: [] })
}
