// Routes of the dashboard under /app/. Pages are split per route; the analytics page (charts and
// the map) is the heaviest and loads only when opened.
import type { QueryClient } from '@tanstack/react-query'
import type { ComponentType } from 'react'
import { createBrowserRouter } from 'react-router'
import { AppShell } from './shell/AppShell'
import { RouteError } from './shell/RouteError'
import { SignInPage } from './auth/SignInPage'

function page<T extends Record<string, unknown>>(load: () => Promise<T>, name: keyof T) {
  return async () => ({ Component: (await load())[name] as ComponentType })
}

export function createAppRouter(queryClient: QueryClient) {
  return createBrowserRouter(
    [
      { path: '/signin', element: <SignInPage />, errorElement: <RouteError /> },
      {
        path: '/',
        element: <AppShell queryClient={queryClient} />,
        errorElement: <RouteError />,
        children: [
          { index: true, lazy: page(() => import('./overview/OverviewPage'), 'OverviewPage') },
          { path: 'links', lazy: page(() => import('./links/LinksPage'), 'LinksPage') },
          { path: 'links/new', lazy: page(() => import('./links/LinkFormPage'), 'CreateLinkPage') },
          { path: 'links/:id/edit', lazy: page(() => import('./links/LinkFormPage'), 'EditLinkPage') },
          { path: 'links/:id/analytics', lazy: page(() => import('./analytics/AnalyticsPage'), 'AnalyticsPage') },
          { path: 'bulk', lazy: page(() => import('./bulk/BulkPage'), 'BulkPage') },
          { path: 'account', lazy: page(() => import('./account/AccountPage'), 'AccountPage') },
          { path: '*', lazy: page(() => import('./shell/NotFoundPage'), 'NotFoundPage') },
        ],
      },
    ],
    { basename: '/app' },
  )
}
