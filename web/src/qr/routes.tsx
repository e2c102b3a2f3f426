// Routes of this area of the dashboard; the router adds them under the signed-in shell.
import type { RouteObject } from 'react-router'
import { lazyPage } from '../shell/lazy-page'

export const qrRoutes: RouteObject[] = [
  { path: 'qr', lazy: lazyPage(() => import('./QrCodesPage'), 'QrCodesPage') },
  { path: 'qr/new', lazy: lazyPage(() => import('./QrFormPage'), 'CreateQrPage') },
  { path: 'qr/:id/edit', lazy: lazyPage(() => import('./QrFormPage'), 'EditQrPage') },
  { path: 'qr/:id/analytics', lazy: lazyPage(() => import('./QrAnalyticsPage'), 'QrAnalyticsPage') },
]
