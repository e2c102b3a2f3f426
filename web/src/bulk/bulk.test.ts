// Reading bulk input and running it, refusals and rate limits included.
import { describe, expect, it, vi } from 'vitest'
import { ApiError } from '../api/client'
import { parseCsv, resultsCsv, rowsFromCsv, rowsFromLines, runBulk, type BulkResult } from './bulk'

describe('bulk input', () => {
  it('reads quoted CSV cells with commas, quotes and line breaks', () => {
    expect(parseCsv('url,alias,title\r\n"https://a.example/?x=1,2",a1,"Say ""hi""\nthere"\n')).toEqual([
      ['url', 'alias', 'title'],
      ['https://a.example/?x=1,2', 'a1', 'Say "hi"\nthere'],
    ])
  })

  it('takes columns by their header, in any order, or url,alias,title without one', () => {
    expect(rowsFromCsv('title,url\nHome,https://a.example\n')).toEqual([{ line: 1, url: 'https://a.example', alias: '', title: 'Home' }])
    expect(rowsFromCsv('\uFEFFhttps://b.example,bee,Bee\n\n')).toEqual([{ line: 1, url: 'https://b.example', alias: 'bee', title: 'Bee' }])
  })

  it('takes pasted URLs one per line, skipping blank lines', () => {
    expect(rowsFromLines(' https://a.example \n\nhttps://b.example').map((row) => row.url)).toEqual(['https://a.example', 'https://b.example'])
  })

  it('creates each row, reports bad rows without sending them and waits out a rate limit', async () => {
    vi.useFakeTimers()
    const rows = rowsFromCsv('url,alias\nhttps://a.example,aaa\nnot a url,\nhttps://c.example,ccc\n')
    let calls = 0
    const create = vi.fn(async (body: { url: string }) => {
      calls += 1
      if (calls === 2) throw new ApiError(429, 'Too many requests.', { code: 'rate_limited', retryAfterSeconds: 1 })
      if (body.url === 'https://c.example' && calls === 3) return { id: 3, shorturl: 'https://lw.test/ccc' }
      return { id: calls, shorturl: `https://lw.test/${calls}` }
    })
    const results: BulkResult[] = rows.map(() => ({ state: 'pending' }))
    const run = runBulk(rows, create, (index, result) => (results[index] = result), () => false)
    await vi.runAllTimersAsync()
    await run
    vi.useRealTimers()
    expect(results[0]).toEqual({ state: 'created', id: 1, shorturl: 'https://lw.test/1' })
    expect(results[1]).toMatchObject({ state: 'failed', message: expect.stringContaining('http') })
    expect(results[2]).toEqual({ state: 'created', id: 3, shorturl: 'https://lw.test/ccc' })
    expect(create).toHaveBeenCalledTimes(3)
    expect(resultsCsv(rows, results).split('\r\n')[2]).toBe('not a url,,,failed,,The URL must be a full http:// or https:// address.')
  })
})
