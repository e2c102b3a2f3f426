// The suite's network rule (test/helpers/local-dns-only.mjs): a look-up of any name but the
// machine's own is answered in the process, never by a DNS server, here and in a Node process a
// test starts. The marker in the answer tells the guard's "not found" from a resolver's.
import { execFileSync } from 'node:child_process'
import dns from 'node:dns'
import { lookup, Resolver } from 'node:dns/promises'
import { describe, expect, it } from 'vitest'

const GUARD = 'tests ask no DNS server'

describe('DNS in tests', () => {
  it('answers names of the network "not found" without asking, by every way of asking', async () => {
    await expect(lookup('registry.npmjs.org', { all: true })).rejects.toMatchObject({ code: 'ENOTFOUND', message: expect.stringContaining(GUARD) })
    await expect(new Resolver({ timeout: 2_000, tries: 1 }).resolve4('hooks.example')).rejects.toMatchObject({ code: 'ENOTFOUND', syscall: 'queryA', message: expect.stringContaining(GUARD) })
    await expect(dns.promises.resolveCname('shop.example')).rejects.toMatchObject({ code: 'ENOTFOUND', message: expect.stringContaining(GUARD) })
    const viaCallback = await new Promise<NodeJS.ErrnoException | null>((resolve) => dns.lookup('hooks.example', { all: true }, (error) => resolve(error)))
    expect(viaCallback).toMatchObject({ code: 'ENOTFOUND', message: expect.stringContaining(GUARD) })
    // What sockets and fetch resolve with.
    const viaFetch = await fetch('http://hooks.example/').catch((error: Error) => error.cause as Error)
    expect(viaFetch).toMatchObject({ code: 'ENOTFOUND', message: expect.stringContaining(GUARD) })
  })

  it('answers the machine\'s own names and addresses as the system does', async () => {
    expect(await lookup('localhost', { all: true })).toEqual(expect.arrayContaining([expect.objectContaining({ address: expect.stringMatching(/^(127\.0\.0\.1|::1)$/) })]))
    expect(await lookup('127.0.0.1')).toEqual({ address: '127.0.0.1', family: 4 })
  })

  it('holds in a Node process a test starts (the built server, the CLI)', () => {
    const script = 'require("node:dns").lookup("hooks.example", (error) => process.stdout.write(String(error && error.message)))'
    expect(execFileSync(process.execPath, ['-e', script], { encoding: 'utf8' })).toContain(GUARD)
  })
})
