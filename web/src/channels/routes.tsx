// Routes of this area of the dashboard; the router adds them under the signed-in shell.
import type { RouteObject } from 'react-router'
import { lazyPage } from '../shell/lazy-page'

export const channelRoutes: RouteObject[] = [
  { path: 'channels', lazy: lazyPage(() => import('./ChannelsPage'), 'ChannelsPage') },
]
