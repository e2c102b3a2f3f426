// Routes of this area of the dashboard; the router adds them under the signed-in shell.
import type { RouteObject } from 'react-router'
import { lazyPage } from '../shell/lazy-page'

export const memberRoutes: RouteObject[] = [
  { path: 'members', lazy: lazyPage(() => import('./MembersPage'), 'MembersPage') },
  { path: 'workspaces/new', lazy: lazyPage(() => import('./NewWorkspacePage'), 'NewWorkspacePage') },
]
