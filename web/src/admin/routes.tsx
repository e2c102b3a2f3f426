// Routes of this area of the dashboard; the router adds them under the signed-in shell.
import type { RouteObject } from 'react-router'
import { lazyPage } from '../shell/lazy-page'

export const adminRoutes: RouteObject[] = [
  { path: 'admin/users', lazy: lazyPage(() => import('./UsersPage'), 'UsersPage') },
  { path: 'admin/people', lazy: lazyPage(() => import('./PeoplePage'), 'PeoplePage') },
  { path: 'admin/plans', lazy: lazyPage(() => import('./PlansPage'), 'PlansPage') },
  { path: 'admin/system', lazy: lazyPage(() => import('./SystemPage'), 'SystemPage') },
  { path: 'admin/sso', lazy: lazyPage(() => import('./SsoProvidersPage'), 'SsoProvidersPage') },
]
