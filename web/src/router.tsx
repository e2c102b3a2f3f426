// Routes of the dashboard under /app/. Pages are split per route; the analytics page (charts and
// the map) is the heaviest and loads only when opened.
import { createBrowserRouter } from 'react-router'
import { adminRoutes } from './admin/routes'
import { memberRoutes } from './members/routes'
import { auditRoutes } from './audit/routes'
import { bioRoutes } from './bio/routes'
import { campaignRoutes } from './campaigns/routes'
import { channelRoutes } from './channels/routes'
import { conversionRoutes } from './conversions/routes'
import { domainRoutes } from './domains/routes'
import { importRoutes } from './imports/routes'
import { overlayRoutes } from './overlays/routes'
import { pixelRoutes } from './pixels/routes'
import { qrRoutes } from './qr/routes'
import { splashRoutes } from './splash/routes'
import { tagRoutes } from './tags/routes'
import { webhookRoutes } from './webhooks/routes'
import { AppShell } from './shell/AppShell'
import { RouteError } from './shell/RouteError'
import { SignInPage } from './auth/SignInPage'
import { lazyPage as page } from './shell/lazy-page'

export function createAppRouter() {
  return createBrowserRouter(
    [
      { path: '/signin', element: <SignInPage />, errorElement: <RouteError /> },
      // Mailed links and sign-up (issue 38): the token in the fragment (#token=…).
      { path: '/forgot-password', lazy: page(() => import('./auth/ForgotPasswordPage'), 'ForgotPasswordPage'), errorElement: <RouteError /> },
      { path: '/reset-password', lazy: page(() => import('./auth/ResetPasswordPage'), 'ResetPasswordPage'), errorElement: <RouteError /> },
      { path: '/sign-up', lazy: page(() => import('./auth/SignUpPage'), 'SignUpPage'), errorElement: <RouteError /> },
      { path: '/confirm-sign-up', lazy: page(() => import('./auth/ConfirmPages'), 'ConfirmSignUpPage'), errorElement: <RouteError /> },
      { path: '/confirm-email', lazy: page(() => import('./auth/ConfirmPages'), 'ConfirmEmailPage'), errorElement: <RouteError /> },
      // The token in the fragment (/invitation#<token>); links mailed before carry it in the path.
      { path: '/invitation', lazy: page(() => import('./members/InvitationPage'), 'InvitationPage'), errorElement: <RouteError /> },
      { path: '/invitation/:token', lazy: page(() => import('./members/InvitationPage'), 'InvitationPage'), errorElement: <RouteError /> },
      {
        path: '/',
        element: <AppShell />,
        errorElement: <RouteError />,
        children: [
          { index: true, lazy: page(() => import('./overview/OverviewPage'), 'OverviewPage') },
          { path: 'links', lazy: page(() => import('./links/LinksPage'), 'LinksPage') },
          { path: 'links/new', lazy: page(() => import('./links/LinkFormPage'), 'CreateLinkPage') },
          { path: 'links/:id/edit', lazy: page(() => import('./links/LinkFormPage'), 'EditLinkPage') },
          { path: 'links/:id/analytics', lazy: page(() => import('./analytics/AnalyticsPage'), 'AnalyticsPage') },
          { path: 'analytics', lazy: page(() => import('./analytics/WorkspaceAnalyticsPage'), 'WorkspaceAnalyticsPage') },
          ...conversionRoutes,
          { path: 'bulk', lazy: page(() => import('./bulk/BulkPage'), 'BulkPage') },
          ...importRoutes,
          ...qrRoutes,
          ...bioRoutes,
          ...campaignRoutes,
          ...channelRoutes,
          ...tagRoutes,
          ...domainRoutes,
          ...pixelRoutes,
          ...splashRoutes,
          ...overlayRoutes,
          ...webhookRoutes,
          ...memberRoutes,
          ...adminRoutes,
          ...auditRoutes,
          { path: 'account', lazy: page(() => import('./account/AccountPage'), 'AccountPage') },
          { path: 'security', lazy: page(() => import('./security/SecurityPage'), 'SecurityPage') },
          { path: '*', lazy: page(() => import('./shell/NotFoundPage'), 'NotFoundPage') },
        ],
      },
    ],
    { basename: '/app' },
  )
}
