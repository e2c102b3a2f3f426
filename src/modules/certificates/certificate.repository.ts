// SQL of TLS certificates (migration 033): one row per hostname, the ACME account per directory,
// and the HTTP-01 answers any instance may be asked for. Keys are stored as the secret box seals them.
import type { DB } from '../../db/database.js'
import type { CertificateStatus, TlsCertificatesTable } from '../../db/schema.js'
import type { Selectable } from 'kysely'

export type CertificateRow = Selectable<TlsCertificatesTable>

export function createCertificateRepository(db: DB) {
  return {
    find(hostname: string): Promise<CertificateRow | undefined> {
      return db.selectFrom('tls_certificates').selectAll().where('hostname', '=', hostname).executeTakeFirst()
    },

    /** Every row of `hostnames` (the names wanted now). */
    async findMany(hostnames: string[]): Promise<Map<string, CertificateRow>> {
      const found = new Map<string, CertificateRow>()
      if (hostnames.length === 0) return found
      for (const row of await db.selectFrom('tls_certificates').selectAll().where('hostname', 'in', hostnames).execute()) found.set(row.hostname, row)
      return found
    },

    /** Certificates that can be served, changed at or after `since` ('' for all; the same second again, so none written in it is missed): what an instance loads. */
    servable(since: string): Promise<Array<Pick<CertificateRow, 'hostname' | 'certificate' | 'private_key' | 'updated_at'>>> {
      return db.selectFrom('tls_certificates').select(['hostname', 'certificate', 'private_key', 'updated_at'])
        .where('certificate', 'is not', null).where('updated_at', '>=', since).orderBy('updated_at').execute()
    },

    /**
     * Claims the order of `hostname` for `instance` until `until`, unless another instance holds a
     * claim that has not run out: true when this one may order. Creates the row on first want.
     */
    async claim(hostname: string, instance: string, now: string, until: string): Promise<boolean> {
      await db.insertInto('tls_certificates')
        .values({ hostname, status: 'pending' as CertificateStatus, updated_at: now })
        .onConflict((conflict) => conflict.column('hostname').doNothing())
        .execute()
      const result = await db.updateTable('tls_certificates')
        .set({ claimed_by: instance, claimed_until: until })
        .where('hostname', '=', hostname)
        .where((eb) => eb.or([eb('claimed_until', 'is', null), eb('claimed_until', '<', now), eb('claimed_by', '=', instance)]))
        .executeTakeFirst()
      return Number(result.numUpdatedRows) === 1
    },

    async saveIssued(hostname: string, issued: { certificate: string; privateKey: string; expiresAt: string; at: string }): Promise<void> {
      await db.updateTable('tls_certificates')
        .set({ status: 'active', certificate: issued.certificate, private_key: issued.privateKey, expires_at: issued.expiresAt, error: null, failures: 0, next_attempt_at: null, claimed_by: null, claimed_until: null, updated_at: issued.at })
        .where('hostname', '=', hostname)
        .execute()
    },

    /** A failed order: its reason and the time of the next attempt; a certificate still valid stays served. */
    async saveFailure(hostname: string, failure: { error: string; failures: number; nextAttemptAt: string; at: string }): Promise<void> {
      await db.updateTable('tls_certificates')
        .set({ status: 'failed', error: failure.error, failures: failure.failures, next_attempt_at: failure.nextAttemptAt, claimed_by: null, claimed_until: null })
        .where('hostname', '=', hostname)
        .execute()
    },

    /** Moves a certificate's expiry (tests: a renewal forced for a certificate near its end). */
    async setExpiry(hostname: string, expiresAt: string): Promise<void> {
      await db.updateTable('tls_certificates').set({ expires_at: expiresAt }).where('hostname', '=', hostname).execute()
    },

    async accountKey(directoryUrl: string): Promise<string | undefined> {
      return (await db.selectFrom('acme_accounts').select('private_key').where('directory_url', '=', directoryUrl).executeTakeFirst())?.private_key
    },

    /** Keeps the first account key written for `directoryUrl` (two instances racing keep one). */
    async saveAccountKey(directoryUrl: string, email: string, privateKey: string, at: string): Promise<void> {
      await db.insertInto('acme_accounts')
        .values({ directory_url: directoryUrl, email, private_key: privateKey, created_at: at })
        .onConflict((conflict) => conflict.column('directory_url').doNothing())
        .execute()
    },

    async putChallenge(token: string, keyAuthorization: string, expiresAt: string): Promise<void> {
      await db.insertInto('acme_challenges')
        .values({ token, key_authorization: keyAuthorization, expires_at: expiresAt })
        .onConflict((conflict) => conflict.column('token').doUpdateSet({ key_authorization: keyAuthorization, expires_at: expiresAt }))
        .execute()
    },

    async challenge(token: string, now: string): Promise<string | undefined> {
      return (await db.selectFrom('acme_challenges').select('key_authorization').where('token', '=', token).where('expires_at', '>', now).executeTakeFirst())?.key_authorization
    },

    /** Deletes `token`'s answer and every answer that has run out. */
    async deleteChallenge(token: string, now: string): Promise<void> {
      await db.deleteFrom('acme_challenges').where((eb) => eb.or([eb('token', '=', token), eb('expires_at', '<', now)])).execute()
    },
  }
}

export type CertificateRepository = ReturnType<typeof createCertificateRepository>
