// Routes of this area of the dashboard; the router adds them under the signed-in shell.
import type { RouteObject } from 'react-router'
import { lazyPage } from '../shell/lazy-page'

export const domainRoutes: RouteObject[] = [
  { path: 'domains', lazy: lazyPage(() => import('./DomainsPage'), 'DomainsPage') },
  { path: 'domains/new', lazy: lazyPage(() => import('./DomainFormPage'), 'CreateDomainPage') },
  { path: 'domains/:id', lazy: lazyPage(() => import('./DomainPage'), 'DomainPage') },
  { path: 'domains/:id/edit', lazy: lazyPage(() => import('./DomainFormPage'), 'EditDomainPage') },
]
