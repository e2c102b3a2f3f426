// CTA overlay rules: the fields each type needs, plan limits, ownership.
import type { OverlayRow } from '../../db/schema.js'
import type { AuthenticatedAccount } from '../accounts/account.service.js'
import { enforcePlanLimit } from '../accounts/plan-limits.js'
import { parseConfigJson } from './config-json.js'
import { buildOverlayConfig } from './overlay-config.js'
import type { OverlayRepository } from './overlay.repository.js'
import type { ContactRepository, NewContact } from './contact.repository.js'
import { OVERLAY_NAME_RULE, OVERLAY_TYPES, type OverlayCreateInput, type OverlayType, type OverlayUpdateInput } from './overlay.schemas.js'
import { OVERLAY_TOPIC, type Announcer } from '../../core/invalidation.js'
import { NotFoundError } from '../../core/errors.js'
import type { PageRequest } from '../../core/paging.js'
import { trimmedName } from '../../core/text.js'

function storedType(overlay: OverlayRow): OverlayType {
  const type = OVERLAY_TYPES.find((known) => known === overlay.type)
  // Rows are only written through this service, so this is a broken database, not a bad request.
  if (!type) throw new Error(`overlay ${overlay.id} has the unknown type "${overlay.type}"`)
  return type
}

export function createOverlayService(overlays: OverlayRepository, invalidation: Announcer, contacts: ContactRepository) {
  const announce = (id: number) => invalidation.publish(OVERLAY_TOPIC, String(id))

  async function getOverlayOrThrow(accountId: number, id: number): Promise<OverlayRow> {
    const overlay = await overlays.findById(accountId, id)
    if (!overlay) throw NotFoundError.of('CTA overlay')
    return overlay
  }

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

    /** Stores what a visitor sent through a contact overlay (checked by contact-submission.ts). */
    saveContact(contact: NewContact): Promise<void> {
      return contacts.insert(contact)
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
      return overlays.insert(account.id, { type: input.type, name, config })
    },

    async updateOverlay(accountId: number, id: number, input: OverlayUpdateInput): Promise<void> {
      const overlay = await getOverlayOrThrow(accountId, id)
      const name = input.name === undefined ? overlay.name : trimmedName(input.name, OVERLAY_NAME_RULE)
      const config = buildOverlayConfig(storedType(overlay), input, parseConfigJson(overlay.config))
      if (!(await overlays.update(accountId, id, { name, config }))) throw NotFoundError.of('CTA overlay')
      announce(id)
    },

    async deleteOverlay(accountId: number, id: number): Promise<void> {
      if (!(await overlays.delete(accountId, id))) throw NotFoundError.of('CTA overlay')
      announce(id)
    },
  }
}

export type OverlayService = ReturnType<typeof createOverlayService>
