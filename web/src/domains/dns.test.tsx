// The DNS instructions: one record per server address (A or AAAA) and the CNAME, for the typed
// host; without server addresses, the page says the check is skipped.
import { QueryClient, QueryClientProvider } from '@tanstack/react-query'
import { render, screen, within } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import { answerWith, json } from '../test-setup'
import { dnsRecords, DnsInstructions } from './dns'

describe('DNS instructions', () => {
  it('lists an A or AAAA record per address and the CNAME', () => {
    expect(dnsRecords({ checked: true, ips: ['203.0.113.7', '2001:db8::7'], cname: 'edge.linkwell.example' }, 'go.brand.example')).toEqual([
      { type: 'A', name: 'go.brand.example', value: '203.0.113.7' },
      { type: 'AAAA', name: 'go.brand.example', value: '2001:db8::7' },
      { type: 'CNAME', name: 'go.brand.example', value: 'edge.linkwell.example' },
    ])
  })

  it('shows the records of the server for the typed host', async () => {
    answerWith(() => json(200, { error: 0, data: { checked: true, ips: ['203.0.113.7'], cname: 'edge.linkwell.example' } }))
    render(<QueryClientProvider client={new QueryClient()}><DnsInstructions host="go.brand.example" /></QueryClientProvider>)
    const table = await screen.findByRole('table', { name: 'DNS records to create' })
    const rows = within(table).getAllByRole('row').slice(1).map((row) => row.textContent)
    expect(rows).toEqual(['Ago.brand.example203.0.113.7', 'CNAMEgo.brand.exampleedge.linkwell.example'])
  })

  it('says the check is skipped when the server has no addresses', async () => {
    answerWith(() => json(200, { error: 0, data: { checked: false, ips: [], cname: null } }))
    render(<QueryClientProvider client={new QueryClient()}><DnsInstructions host="" /></QueryClientProvider>)
    expect((await screen.findByRole('note')).textContent).toContain('the DNS check is skipped')
    expect(screen.queryByRole('table')).toBeNull()
  })
})
