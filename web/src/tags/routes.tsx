// Routes of this area of the dashboard; the router adds them under the signed-in shell.
import type { RouteObject } from 'react-router'
import { lazyPage } from '../shell/lazy-page'

export const tagRoutes: RouteObject[] = [
  { path: 'tags', lazy: lazyPage(() => import('./TagsPage'), 'TagsPage') },
]
