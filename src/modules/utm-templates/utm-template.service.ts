// UTM template rules: a name, and at least one UTM parameter by the links' own rule
// (links/link-options.ts), so a template applies to a link as it is.
import type { AuthenticatedAccount } from '../access/authenticated-account.js'
import { givenFields, type ChangeJournal } from '../changes/change-journal.js'
import type { Bindable } from '../../db/transactions.js'
import { NotFoundError, ValidationError } from '../../core/errors.js'
import type { PageRequest } from '../../core/paging.js'
import { trimmedName } from '../../core/text.js'
import { UTM_FIELDS } from '../../core/utm.js'
import { normaliseUtm, serialiseUtm } from '../links/link-options.js'
import type { UtmTemplateRepository } from './utm-template.repository.js'
import { toUtmTemplateRecord } from './utm-template.mapper.js'
import { TEMPLATE_NAME_RULE, type UtmTemplateCreateInput, type UtmTemplateUpdateInput } from './utm-template.schemas.js'

/** The template's parameters as stored; a ValidationError naming `utm` when none is set. */
function templateUtm(given: unknown): string {
  const utm = normaliseUtm(given)
  if (!utm) throw ValidationError.field('utm', `must set at least one of ${UTM_FIELDS.join(', ')}`)
  return serialiseUtm(utm)
}

export interface UtmTemplateServiceOptions {
  templates: Bindable<UtmTemplateRepository>
  journal: ChangeJournal
}

export function createUtmTemplateService({ templates, journal }: UtmTemplateServiceOptions) {
  return {
    listTemplates(accountId: number, page: PageRequest) {
      return templates.listPage(accountId, page)
    },

    async createTemplate(account: AuthenticatedAccount, input: UtmTemplateCreateInput) {
      const name = trimmedName(input.name, TEMPLATE_NAME_RULE, 1)
      const utm = templateUtm(input.utm)
      return journal.write(account, async (trx) => {
        const template = await templates.in(trx).insert(account.id, { name, utm })
        const record = toUtmTemplateRecord(template)
        return { result: record, changes: [{ action: 'utm_template.created', resource: 'utm_template', resourceId: template.id, fields: givenFields(input), record }] }
      })
    },

    async updateTemplate(account: AuthenticatedAccount, id: number, input: UtmTemplateUpdateInput): Promise<void> {
      const name = input.name === undefined ? undefined : trimmedName(input.name, TEMPLATE_NAME_RULE, 1)
      const utm = input.utm === undefined ? undefined : templateUtm(input.utm)
      await journal.write(account, async (trx) => {
        const saved = templates.in(trx)
        if (!(await saved.update(account.id, id, { name, utm }))) throw NotFoundError.of('UTM template')
        const record = toUtmTemplateRecord((await saved.findById(account.id, id))!)
        return { result: undefined, changes: [{ action: 'utm_template.updated', resource: 'utm_template', resourceId: id, fields: givenFields(input), record }] }
      })
    },

    async deleteTemplate(account: AuthenticatedAccount, id: number): Promise<void> {
      await journal.write(account, async (trx) => {
        const saved = templates.in(trx)
        const template = await saved.findById(account.id, id)
        if (!template || !(await saved.delete(account.id, id))) throw NotFoundError.of('UTM template')
        return { result: undefined, changes: [{ action: 'utm_template.deleted', resource: 'utm_template', resourceId: id, fields: [], record: toUtmTemplateRecord(template) }] }
      })
    },
  }
}

export type UtmTemplateService = ReturnType<typeof createUtmTemplateService>
