// Routes of this area of the dashboard; the router adds them under the signed-in shell.
import type { RouteObject } from 'react-router'
import { lazyPage } from '../shell/lazy-page'

export const campaignRoutes: RouteObject[] = [
  { path: 'campaigns', lazy: lazyPage(() => import('./CampaignsPage'), 'CampaignsPage') },
  { path: 'campaigns/new', lazy: lazyPage(() => import('./CampaignFormPage'), 'CreateCampaignPage') },
  { path: 'campaigns/:id', lazy: lazyPage(() => import('./CampaignDetailPage'), 'CampaignDetailPage') },
  { path: 'campaigns/:id/edit', lazy: lazyPage(() => import('./CampaignFormPage'), 'EditCampaignPage') },
]
