// The frame of every signed-in page: navigation, the account, sign out; sends a visitor without
// a session to the sign-in page and back afterwards.
import { useMutation, type QueryClient } from '@tanstack/react-query'
import { useEffect, useState } from 'react'
import { Navigate, NavLink, Outlet, useLocation, useNavigate } from 'react-router'
import { ApiError, api, onSignedOut, unwrap } from '../api/client'
import { ErrorMessage, Loading } from '../components/States'
import { useAccount } from './session'

const NAVIGATION = [
  { to: '/', label: 'Overview', end: true, icon: 'M3 13h8V3H3v10zm0 8h8v-6H3v6zm10 0h8V11h-8v10zm0-18v6h8V3h-8z' },
  { to: '/links', label: 'Links', end: false, icon: 'M10 14a5 5 0 007.07 0l3-3a5 5 0 00-7.07-7.07l-1.5 1.5M14 10a5 5 0 00-7.07 0l-3 3a5 5 0 007.07 7.07l1.5-1.5' },
  { to: '/bulk', label: 'Bulk create', end: false, icon: 'M4 6h16M4 12h16M4 18h10' },
  { to: '/account', label: 'Account', end: false, icon: 'M12 12a4 4 0 100-8 4 4 0 000 8zm-7 9a7 7 0 0114 0' },
]

export function AppShell({ queryClient }: { queryClient: QueryClient }) {
  const account = useAccount()
  const location = useLocation()
  const navigate = useNavigate()
  const [menuOpen, setMenuOpen] = useState(false)

  useEffect(() => onSignedOut(async () => {
    await navigate('/signin', { replace: true, state: { from: location.pathname + location.search } })
    queryClient.clear()
  }), [queryClient, navigate, location])

  useEffect(() => setMenuOpen(false), [location.pathname])

  const signOut = useMutation({
    mutationFn: () => unwrap(api.POST('/api/auth/logout')),
    // Leave first, then forget: cleared while still mounted, the pages would ask again, be refused,
    // and send the person to the sign-in page a second time without the "signed out" note.
    onSettled: async () => {
      await navigate('/signin', { replace: true, state: { signedOut: true } })
      queryClient.clear()
    },
  })

  if (account.isPending) return <div className="boot"><Loading label="Loading your workspace…" /></div>
  if (account.error) {
    if (account.error instanceof ApiError && account.error.status === 401) {
      return <Navigate to="/signin" replace state={{ from: location.pathname + location.search }} />
    }
    return <div className="boot"><ErrorMessage error={account.error} onRetry={() => account.refetch()} /></div>
  }

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
          <NavLink to="/links/new" className="button primary nav-create">+ Create link</NavLink>
          <ul>
            {NAVIGATION.map((item) => (
              <li key={item.to}>
                <NavLink to={item.to} end={item.end} className={({ isActive }) => (isActive && location.pathname !== '/links/new' ? 'active' : undefined)}>
                  <svg viewBox="0 0 24 24" width="18" height="18" aria-hidden="true"><path d={item.icon} stroke="currentColor" strokeWidth="1.8" fill="none" strokeLinecap="round" strokeLinejoin="round" /></svg>
                  {item.label}
                </NavLink>
              </li>
            ))}
          </ul>
          <div className="sidebar-account">
            <span className="muted small" title={account.data.email}>{account.data.email}</span>
            <button type="button" className="button ghost small" onClick={() => signOut.mutate()} disabled={signOut.isPending}>
              {signOut.isPending ? 'Signing out…' : 'Sign out'}
            </button>
          </div>
        </nav>
      </header>
      <main className="content" id="content" tabIndex={-1}>
        <Outlet />
      </main>
    </div>
  )
}
