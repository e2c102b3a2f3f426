// core/csv.ts: cells a spreadsheet would run as a formula are neutralised (OWASP: a single quote
// before them, the cell quoted), and restoreNeutralisedCell gives every written text back exactly.
import { describe, expect, it } from 'vitest'
import { parse } from 'csv-parse/sync'
import { csvLine, restoreNeutralisedCell } from '../../src/core/csv.js'

const read = (line: string) => (parse(line) as string[][])[0]!

describe('csvLine', () => {
  it('writes a text beginning with =, +, -, @, tab or CR after a single quote, quoted', () => {
    expect(csvLine(['=HYPERLINK("http://evil.example","x")', '+1', '-2+3', '@SUM(A1)', '\tx', '\rx'])).toBe(
      `"'=HYPERLINK(""http://evil.example"",""x"")","'+1","'-2+3","'@SUM(A1)","'\tx","'\rx"\r\n`,
    )
  })

  it('leaves numbers, JSON lists and plain text as they were', () => {
    expect(csvLine([-5, 12, ['-a', '=b'], 'https://example.com/-x', 'plain'])).toBe(`-5,12,"[""-a"",""=b""]",https://example.com/-x,plain\r\n`)
  })

  it('reads back every text exactly, one that already began with a quote too', () => {
    const values = ['=1+2', "'=1+2", "'plain", "''", "'", '-', 'a=b', '@', 'plain', '  spaced  ', '"quoted"']
    expect(read(csvLine(values)).map(restoreNeutralisedCell)).toEqual(values)
    // No cell a spreadsheet sees begins with a formula's sign.
    expect(read(csvLine(values)).filter((cell) => /^[=+\-@\t\r]/.test(cell))).toEqual([])
  })
})
