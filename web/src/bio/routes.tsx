// Routes of this area of the dashboard; the router adds them under the signed-in shell.
import type { RouteObject } from 'react-router'
import { lazyPage } from '../shell/lazy-page'

export const bioRoutes: RouteObject[] = [
  { path: 'bio', lazy: lazyPage(() => import('./BioPagesPage'), 'BioPagesPage') },
  { path: 'bio/new', lazy: lazyPage(() => import('./BioEditorPage'), 'CreateBioPage') },
  { path: 'bio/:id', lazy: lazyPage(() => import('./BioEditorPage'), 'EditBioPage') },
  { path: 'bio/:id/statistics', lazy: lazyPage(() => import('./BioStatisticsPage'), 'BioStatisticsPage') },
]
