// Routes of this area of the dashboard; the router adds them under the signed-in shell.
import type { RouteObject } from 'react-router'
import { lazyPage } from '../shell/lazy-page'

export const splashRoutes: RouteObject[] = [
  { path: 'splash', lazy: lazyPage(() => import('./SplashPagesPage'), 'SplashPagesPage') },
  { path: 'splash/new', lazy: lazyPage(() => import('./SplashEditorPage'), 'CreateSplashPage') },
  { path: 'splash/:id/edit', lazy: lazyPage(() => import('./SplashEditorPage'), 'EditSplashPage') },
]
