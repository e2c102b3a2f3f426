// Routes of this area of the dashboard; the router adds them under the signed-in shell.
import type { RouteObject } from 'react-router'
import { lazyPage } from '../shell/lazy-page'

export const importRoutes: RouteObject[] = [
  { path: 'import', lazy: lazyPage(() => import('./ImportPage'), 'ImportPage') },
]
