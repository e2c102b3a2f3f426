// Routes of this area of the dashboard; the router adds them under the signed-in shell.
import type { RouteObject } from 'react-router'
import { lazyPage } from '../shell/lazy-page'

export const channelRoutes: RouteObject[] = [
  { path: 'channels', lazy: lazyPage(() => import('./ChannelsPage'), 'ChannelsPage') },
  { path: 'channels/new', lazy: lazyPage(() => import('./ChannelFormPage'), 'CreateChannelPage') },
  { path: 'channels/:id', lazy: lazyPage(() => import('./ChannelDetailPage'), 'ChannelDetailPage') },
  { path: 'channels/:id/edit', lazy: lazyPage(() => import('./ChannelFormPage'), 'EditChannelPage') },
]
