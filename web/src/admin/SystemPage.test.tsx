// The system page says which engine answers statistics: the raw clicks, or ClickHouse with how far
// its feeder has come (issue 40).
import { QueryClient, QueryClientProvider } from '@tanstack/react-query'
import { render, screen } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import { answerWith, json } from '../test-setup'
import { SystemPage } from './SystemPage'

function renderPage() {
  render(<QueryClientProvider client={new QueryClient()}><SystemPage /></QueryClientProvider>)
}

describe('the system page', () => {
  it('names the raw clicks when they answer', async () => {
    answerWith(() => json(200, { error: 0, data: { statistics: { engine: 'raw' } } }))
    renderPage()
    expect(await screen.findByText('Statistics engine: Raw clicks')).toBeTruthy()
    expect(screen.queryByText('Database')).toBeNull()
  })

  it('names ClickHouse, its database and the feeder\'s place', async () => {
    answerWith(() => json(200, { error: 0, data: { statistics: { engine: 'clickhouse', clickhouse: { database: 'linkwell', feed: { lastId: 4321, gaps: 2, fedAt: '2026-12-07 00:10:00', fedClicks: 4300, leased: true } } } } }))
    renderPage()
    expect(await screen.findByText('Statistics engine: ClickHouse')).toBeTruthy()
    expect(screen.getByText('linkwell')).toBeTruthy()
    expect(screen.getByText('4321')).toBeTruthy()
    expect(screen.getByText('an instance holds the lease')).toBeTruthy()
  })
})
