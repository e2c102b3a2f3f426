// Routes of this area of the dashboard; the router adds them under the signed-in shell.
import type { RouteObject } from 'react-router'
import { lazyPage } from '../shell/lazy-page'

export const overlayRoutes: RouteObject[] = [
  { path: 'overlays', lazy: lazyPage(() => import('./OverlaysPage'), 'OverlaysPage') },
  { path: 'overlays/new', lazy: lazyPage(() => import('./OverlayEditorPage'), 'CreateOverlayPage') },
  { path: 'overlays/:id/edit', lazy: lazyPage(() => import('./OverlayEditorPage'), 'EditOverlayPage') },
  { path: 'overlays/:id/contacts', lazy: lazyPage(() => import('./OverlayContactsPage'), 'OverlayContactsPage') },
]
