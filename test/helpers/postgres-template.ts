// A migrated PostgreSQL database that every test file's database is copied from (CREATE DATABASE …
// TEMPLATE): a copy takes a tenth of a second where running every migration again took half a second
// or more per file. Its name carries a hash of the migrations, so a changed migration makes a new
// template; test/global-setup.ts makes it once per run (and drops templates of other migrations that no run
// has used for three hours).
import { createHash } from 'node:crypto'
import fs from 'node:fs'
import path from 'node:path'
import pg from 'pg'
import { migrateToLatest, openDatabase } from '../../src/db/database.js'

const MIGRATIONS = path.resolve('src/db/migrations')
const PREFIX = 'lw_template_'
/** A template of other migrations that no run has used for this long is dropped. */
const UNUSED_FOR_MS = 3 * 60 * 60 * 1000

let knownName: string | undefined

/** The template's name for the migrations in the tree now (read once per process). */
export function templateName(): string {
  if (knownName === undefined) {
    const hash = createHash('sha256')
    for (const file of fs.readdirSync(MIGRATIONS).sort()) hash.update(file).update(fs.readFileSync(path.join(MIGRATIONS, file)))
    knownName = `${PREFIX}${hash.digest('hex').slice(0, 16)}`
  }
  return knownName
}

/** The same server's URL for another database. */
export function databaseUrl(baseUrl: string, name: string): string {
  const url = new URL(baseUrl)
  url.pathname = `/${name}`
  url.searchParams.delete('options')
  return url.toString()
}

async function withClient<T>(baseUrl: string, work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: baseUrl })
  await client.connect()
  try {
    return await work(client)
  } finally {
    await client.end()
  }
}

/** Makes the template for the migrations in the tree unless it is there; drops templates of other migrations unused for hours. */
export async function ensurePostgresTemplate(baseUrl: string): Promise<string> {
  const template = templateName()
  return withClient(baseUrl, async (client) => {
    const { rows } = await client.query<{ datname: string; used: string | null }>(
      `select datname, shobj_description(oid, 'pg_database') as used from pg_database where datname like '${PREFIX}%'`,
    )
    // Another checkout's run (a worktree with other migrations) may be using its template now: only
    // templates no run has used for a while go (each run writes the time into its template's comment).
    for (const { datname, used } of rows) {
      if (datname !== template && !(Number(used) > Date.now() - UNUSED_FOR_MS)) await client.query(`drop database if exists ${datname} with (force)`)
    }
    if (rows.some((row) => row.datname === template)) {
      await client.query(`comment on database ${template} is '${Date.now()}'`)
      return template
    }
    // Built under a name of its own and renamed when whole: a run stopped midway leaves no half template.
    const building = `${template}_building`
    await client.query(`drop database if exists ${building} with (force)`)
    await client.query(`create database ${building}`)
    const handle = openDatabase(databaseUrl(baseUrl, building))
    try {
      await migrateToLatest(handle)
    } finally {
      await handle.close()
    }
    await client.query(`alter database ${building} rename to ${template}`)
    await client.query(`comment on database ${template} is '${Date.now()}'`)
    return template
  })
}

/** A new database copied from the template; answers its URL and how to drop it. */
export async function copyOfTemplate(baseUrl: string, name: string): Promise<{ url: string; drop(): Promise<void> }> {
  await withClient(baseUrl, (client) => client.query(`create database ${name} template ${templateName()}`))
  return {
    url: databaseUrl(baseUrl, name),
    drop: () => withClient(baseUrl, (client) => client.query(`drop database if exists ${name} with (force)`)).then(() => undefined),
  }
}
