// Routes of this area of the dashboard; the router adds them under the signed-in shell.
import type { RouteObject } from 'react-router'
import { lazyPage } from '../shell/lazy-page'

export const auditRoutes: RouteObject[] = [
  { path: 'audit', lazy: lazyPage(() => import('./AuditPage'), 'AuditPage') },
]
