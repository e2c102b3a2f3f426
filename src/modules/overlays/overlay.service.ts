// CTA overlay rules: the fields each type needs, plan limits, ownership.
import type { OverlayRow } from '../../db/schema.js'
import type { AuthenticatedAccount } from '../access/authenticated-account.js'
import { enforcePlanLimit } from '../plans/plan-limits.js'
import { parseConfigJson } from './config-json.js'
import { buildOverlayConfig } from './overlay-config.js'
import type { OverlayRepository } from './overlay.repository.js'
import type { ContactRepository, NewContact } from './contact.repository.js'
import { toContactRecord, toOverlayDetails } from './overlay.mapper.js'
import type { EventOutbox } from '../webhooks/event-outbox.js'
import { givenFields, type ChangeJournal } from '../changes/change-journal.js'
import type { Bindable } from '../../db/transactions.js'
import { OVERLAY_NAME_RULE, OVERLAY_TYPES, type OverlayCreateInput, type OverlayType, type OverlayUpdateInput } from './overlay.schemas.js'
import { OVERLAY_TOPIC, type Announcer } from '../../core/invalidation.js'
import { NotFoundError, orNotFound } from '../../core/errors.js'
import type { PageRequest } from '../../core/paging.js'
import { trimmedName } from '../../core/text.js'

function storedType(overlay: OverlayRow): OverlayType {
  const type = OVERLAY_TYPES.find((known) => known === overlay.type)
  // Rows are only written through this service, so this is a broken database, not a bad request.
  if (!type) throw new Error(`overlay ${overlay.id} has the unknown type "${overlay.type}"`)
  return type
}

export interface OverlayServiceOptions {
  overlays: Bindable<OverlayRepository>
  journal: ChangeJournal
  /** Told each changed overlay, so that caches of the visits that show it drop it. */
  invalidation: Announcer
  /** The contacts visitors leave through overlays' forms. */
  contacts: Bindable<ContactRepository>
  /** Where a contact's event for webhooks is written, in the contact's transaction. */
  events: Pick<EventOutbox, 'emitting'>
}

export function createOverlayService({ overlays, journal, invalidation, contacts, events }: OverlayServiceOptions) {
  const announce = (id: number) => invalidation.publish(OVERLAY_TOPIC, String(id))

  const getOverlayOrThrow = orNotFound(overlays.findById, 'CTA overlay')

  return {
    getOverlayOrThrow,

    listOverlays(accountId: number, page: PageRequest) {
      return overlays.listPage(accountId, page)
    },

    /** What visitors sent through one of the account's contact overlays, newest first. */
    async listContacts(accountId: number, overlayId: number, page: PageRequest) {
      await getOverlayOrThrow(accountId, overlayId)
      return contacts.listPage(accountId, overlayId, page)
    },

    /**
     * Stores what a visitor sent through a contact overlay (checked by contact-submission.ts), and
     * its `contact.submitted` event in the same transaction (no person's change: not audited).
     */
    async saveContact(contact: NewContact): Promise<void> {
      await events.emitting(async (trx, emit) => {
        const stored = await contacts.in(trx).insert(contact)
        emit({ accountId: contact.accountId, type: 'contact.submitted', data: { ...toContactRecord(stored), overlay: contact.overlayId } })
      })
    },

    /** The config `input` would store (the rules of create), for previews: nothing is saved. */
    previewOverlayConfig(input: OverlayCreateInput) {
      trimmedName(input.name, OVERLAY_NAME_RULE)
      return buildOverlayConfig(input.type, input)
    },

    async createOverlay(account: AuthenticatedAccount, input: OverlayCreateInput): Promise<OverlayRow> {
      const name = trimmedName(input.name, OVERLAY_NAME_RULE)
      const config = buildOverlayConfig(input.type, input)
      await enforcePlanLimit(account, 'overlays', () => overlays.count(account.id))
      return journal.write(account, async (trx) => {
        const overlay = await overlays.in(trx).insert(account.id, { type: input.type, name, config })
        return { result: overlay, changes: [{ action: 'overlay.created', resource: 'overlay', resourceId: overlay.id, fields: givenFields(input), record: toOverlayDetails(overlay) }] }
      })
    },

    async updateOverlay(account: AuthenticatedAccount, id: number, input: OverlayUpdateInput): Promise<void> {
      const overlay = await getOverlayOrThrow(account.id, id)
      const name = input.name === undefined ? overlay.name : trimmedName(input.name, OVERLAY_NAME_RULE)
      const config = buildOverlayConfig(storedType(overlay), input, parseConfigJson(overlay.config))
      await journal.write(account, async (trx) => {
        if (!(await overlays.in(trx).update(account.id, id, { name, config }))) throw NotFoundError.of('CTA overlay')
        const record = toOverlayDetails({ ...overlay, name, config: JSON.stringify(config) })
        return { result: undefined, changes: [{ action: 'overlay.updated', resource: 'overlay', resourceId: id, fields: givenFields(input), record }] }
      })
      announce(id)
    },

    async deleteOverlay(account: AuthenticatedAccount, id: number): Promise<void> {
      const overlay = await getOverlayOrThrow(account.id, id)
      await journal.write(account, async (trx) => {
        if (!(await overlays.in(trx).delete(account.id, id))) throw NotFoundError.of('CTA overlay')
        return { result: undefined, changes: [{ action: 'overlay.deleted', resource: 'overlay', resourceId: id, fields: [], record: toOverlayDetails(overlay) }] }
      })
      announce(id)
    },
  }
}

export type OverlayService = ReturnType<typeof createOverlayService>
