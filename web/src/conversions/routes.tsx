// Routes of this area of the dashboard; the router adds them under the signed-in shell.
import type { RouteObject } from 'react-router'
import { lazyPage } from '../shell/lazy-page'

export const conversionRoutes: RouteObject[] = [
  { path: 'conversions', lazy: lazyPage(() => import('./ConversionsPage'), 'ConversionsPage') },
  { path: 'conversions/setup', lazy: lazyPage(() => import('./ConversionSetupPage'), 'ConversionSetupPage') },
]
