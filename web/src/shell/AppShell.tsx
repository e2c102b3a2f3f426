// The frame of every signed-in page: navigation, the workspace (a switcher when the person has
// several), the account, sign out; sends a visitor without a session to the sign-in page and back
// afterwards. What the person's role does not allow is shown disabled with the reason.
import { useEffect, useState } from 'react'
import { flushSync } from 'react-dom'
import { Navigate, NavLink, Outlet, useLocation, useNavigate } from 'react-router'
import { useAccount, useForgetAll, usePlanUsage, useSignOut } from '../account/account-queries'
import { onSignedOut, requestsAnswered } from '../api/client'
import { ErrorMessage, Loading } from '../components/States'
import { roleAllows, useCanCreateWorkspace, useRoleRefreshOnRefusal, useWorkspaces } from '../members/member-queries'
import { ROLE_REASONS } from '../members/RoleGuard'
import { WorkspaceSwitcher } from './WorkspaceSwitcher'

interface NavigationItem {
  to: string
  label: string
  end?: boolean
  icon: string
}

// The sidebar, in groups; the administration group is shown to administrators only.
const NAVIGATION: Array<{ title?: string; adminOnly?: boolean; items: NavigationItem[] }> = [
  {
    items: [
      { to: '/', label: 'Overview', end: true, icon: 'M3 13h8V3H3v10zm0 8h8v-6H3v6zm10 0h8V11h-8v10zm0-18v6h8V3h-8z' },
      { to: '/analytics', label: 'Analytics', icon: 'M4 20V10M10 20V4M16 20v-7M22 20H2' },
      { to: '/conversions', label: 'Conversions', icon: 'M3 4h18l-7 8v6l-4 2v-8L3 4z' },
      { to: '/links', label: 'Links', icon: 'M10 14a5 5 0 007.07 0l3-3a5 5 0 00-7.07-7.07l-1.5 1.5M14 10a5 5 0 00-7.07 0l-3 3a5 5 0 007.07 7.07l1.5-1.5' },
      { to: '/qr', label: 'QR codes', icon: 'M4 4h6v6H4zM14 4h6v6h-6zM4 14h6v6H4zM14 14h2v2h-2zM18 18h2v2h-2zM14 18h2M18 14h2' },
      { to: '/bio', label: 'Bio pages', icon: 'M7 3h10a2 2 0 012 2v14a2 2 0 01-2 2H7a2 2 0 01-2-2V5a2 2 0 012-2zM9 8h6M9 12h6M9 16h6' },
      { to: '/bulk', label: 'Bulk create', icon: 'M4 6h16M4 12h16M4 18h10' },
      { to: '/import', label: 'Import & export', icon: 'M12 3v12M7 10l5 5 5-5M4 17v3h16v-3' },
    ],
  },
  {
    title: 'Organize',
    items: [
      { to: '/campaigns', label: 'Campaigns', icon: 'M4 10v4h3l6 4V6L7 10H4zM17 9a4 4 0 010 6' },
      { to: '/channels', label: 'Channels', icon: 'M4 7h16M4 12h16M4 17h16M8 4v16' },
      { to: '/tags', label: 'Tags', icon: 'M3 12V4h8l10 10-8 8L3 12zM7.5 7.5h.01' },
    ],
  },
  {
    title: 'Set up',
    items: [
      { to: '/domains', label: 'Branded domains', icon: 'M12 21a9 9 0 100-18 9 9 0 000 18zM3 12h18M12 3a14 14 0 010 18M12 3a14 14 0 000 18' },
      { to: '/pixels', label: 'Pixels', icon: 'M12 5c-5 0-9 7-9 7s4 7 9 7 9-7 9-7-4-7-9-7zm0 10a3 3 0 110-6 3 3 0 010 6z' },
      { to: '/splash', label: 'Splash pages', icon: 'M4 5h16v14H4zM4 9h16' },
      { to: '/overlays', label: 'CTA overlays', icon: 'M4 4h16v12H4zM8 20h8M7 12h6' },
      { to: '/webhooks', label: 'Webhooks', icon: 'M8 17a4 4 0 11-3.5-6M12 7a4 4 0 116 3.5M16 17h-7l3.5-6.5M18 17a4 4 0 10-2-7.5' },
    ],
  },
  {
    title: 'Administration',
    adminOnly: true,
    items: [
      { to: '/admin/users', label: 'Users', icon: 'M9 11a4 4 0 100-8 4 4 0 000 8zM2 21a7 7 0 0114 0M17 11a3 3 0 100-6M22 21a6 6 0 00-5-5.9' },
      { to: '/admin/people', label: 'People', icon: 'M12 12a4 4 0 100-8 4 4 0 000 8zm-7 9a7 7 0 0114 0' },
      { to: '/admin/plans', label: 'Plans', icon: 'M4 6h16v12H4zM4 10h16M8 14h3' },
      { to: '/admin/system', label: 'System', icon: 'M4 5h16v10H4zM8 19h8M12 15v4' },
      { to: '/admin/sso', label: 'Single sign-on', icon: 'M12 3l7 3v5c0 4.5-3 8.5-7 10-4-1.5-7-5.5-7-10V6zM9 12l2 2 4-4' },
    ],
  },
  {
    title: 'Workspace',
    items: [
      { to: '/members', label: 'Members', icon: 'M9 11a4 4 0 100-8 4 4 0 000 8zM2 21a7 7 0 0114 0M17 11a3 3 0 100-6M22 21a6 6 0 00-5-5.9' },
      { to: '/account', label: 'Account', icon: 'M12 12a4 4 0 100-8 4 4 0 000 8zm-7 9a7 7 0 0114 0' },
      { to: '/security', label: 'Security', icon: 'M12 3l7 3v6c0 4.5-3 7.5-7 9-4-1.5-7-4.5-7-9V6l7-3zM9 12l2 2 4-4' },
      { to: '/audit', label: 'Audit log', icon: 'M12 8v4l3 2M12 21a9 9 0 100-18 9 9 0 000 18z' },
    ],
  },
]

export function AppShell() {
  const account = useAccount()
  const forgetAll = useForgetAll()
  const endSession = useSignOut()
  const [signingOut, setSigningOut] = useState(false)
  // A session whose workspace requires a second factor the person lacks may only set one up (ADR 025).
  const enrolling = account.data?.step === 'enrol'
  // Asked once someone is signed in, and no more once signing out has begun (the workspaces are
  // otherwise asked again every 30 s and on focus, with a session about to end).
  const asking = Boolean(account.data) && !enrolling && !signingOut
  // Whether the administration group shows.
  const usage = usePlanUsage(asking)
  const workspaces = useWorkspaces(asking)
  const canCreateWorkspace = useCanCreateWorkspace(asking)
  const role = workspaces.data?.find((workspace) => workspace.current)?.role
  const location = useLocation()
  const navigate = useNavigate()
  const [menuOpen, setMenuOpen] = useState(false)

  useEffect(() => onSignedOut(async () => {
    await navigate('/signin', { replace: true, state: { from: location.pathname + location.search } })
    forgetAll()
  }), [forgetAll, navigate, location])

  // A refusal may mean the role changed meanwhile: it is read again, so the pages offer what it allows.
  useRoleRefreshOnRefusal()

  useEffect(() => setMenuOpen(false), [location.pathname])

  /**
   * Ends the session without a request of it being refused. The pages go first, at once (flushSync):
   * unmounted, none asks again on an interval or on focus. The requests already sent are answered
   * while the session still stands (one the server read after the logout would be refused, the
   * browser would log the 401, and its answer would clear the cookie of the next sign-in). Then the
   * logout, and the sign-in page before the cache is forgotten: cleared while the shell is still
   * mounted, it would ask again.
   */
  async function signOut() {
    flushSync(() => setSigningOut(true))
    await requestsAnswered()
    await endSession(() => navigate('/signin', { replace: true, state: { signedOut: true } }))
  }

  if (signingOut) return <div className="boot"><Loading label="Signing out…" /></div>
  if (account.isPending) return <div className="boot"><Loading label="Loading your workspace…" /></div>
  if (account.error) return <div className="boot"><ErrorMessage error={account.error} onRetry={() => account.refetch()} /></div>
  // Nobody is signed in (the probe answers null, not a 401): to the sign-in page, and back afterwards.
  if (account.data === null) return <Navigate to="/signin" replace state={{ from: location.pathname + location.search }} />
  if (enrolling && location.pathname !== '/security') return <Navigate to="/security" replace />

  return (
    <div className="shell">
      <a href="#content" className="skip-link">Skip to content</a>
      <header className="sidebar">
        <div className="sidebar-top">
          <NavLink to="/" className="brand" aria-label="Linkwell home">
            <span className="brand-mark" aria-hidden="true">
              <svg viewBox="0 0 24 24" width="18" height="18"><path d="M9.5 14.5l5-5M8 11.5l-2 2a3.5 3.5 0 005 5l2-2M16 12.5l2-2a3.5 3.5 0 00-5-5l-2 2" stroke="currentColor" strokeWidth="2.2" fill="none" strokeLinecap="round" /></svg>
            </span>
            Linkwell
          </NavLink>
          <button type="button" className="menu-toggle" aria-expanded={menuOpen} aria-controls="main-navigation" onClick={() => setMenuOpen(!menuOpen)}>
            {menuOpen ? 'Close' : 'Menu'}
          </button>
        </div>
        <nav id="main-navigation" aria-label="Main" className={menuOpen ? 'nav open' : 'nav'}>
          {workspaces.data && <WorkspaceSwitcher workspaces={workspaces.data} canCreate={canCreateWorkspace} />}
          {role === undefined || roleAllows(role, 'editor') ? (
            <NavLink to="/links/new" className="button primary nav-create">+ Create link</NavLink>
          ) : (
            <div className="nav-create-disabled">
              <button type="button" className="button primary nav-create" disabled aria-describedby="create-link-reason">+ Create link</button>
              <p id="create-link-reason" className="muted small">{ROLE_REASONS.editor}</p>
            </div>
          )}
          {NAVIGATION.filter((group) => !group.adminOnly || usage.data?.admin).map((group, index) => (
            <div className="nav-group" key={group.title ?? index} role={group.title ? 'group' : undefined} aria-label={group.title}>
              {group.title && <span className="nav-group-title" aria-hidden="true">{group.title}</span>}
              <ul>
                {group.items.map((item) => (
                  <li key={item.to}>
                    <NavLink to={item.to} end={item.end ?? false} className={({ isActive }) => (isActive && location.pathname !== '/links/new' ? 'active' : undefined)}>
                      <svg viewBox="0 0 24 24" width="18" height="18" aria-hidden="true"><path d={item.icon} stroke="currentColor" strokeWidth="1.8" fill="none" strokeLinecap="round" strokeLinejoin="round" /></svg>
                      {item.label}
                    </NavLink>
                  </li>
                ))}
              </ul>
            </div>
          ))}
          <div className="sidebar-account">
            <span className="muted small" title={account.data.email}>{account.data.email}</span>
            <button type="button" className="button ghost small" onClick={() => void signOut()}>Sign out</button>
          </div>
        </nav>
      </header>
      <main className="content" id="content" tabIndex={-1}>
        <Outlet />
      </main>
    </div>
  )
}
