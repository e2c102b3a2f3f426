// Request and response schemas of the UTM template endpoints (issue 23): an account's named sets
// of UTM parameters, applied to a link in one click in the dashboard's builder.
import { Type, type Static } from 'typebox'
import { DateTime, listResponse } from '../../core/schemas.js'
import { UtmInput, UtmRecord } from '../links/link.schemas.js'

export const TEMPLATE_NAME_RULE = 'must be 1 to 100 characters'
const Name = Type.String({ minLength: 1, maxLength: 100, errorMessage: TEMPLATE_NAME_RULE })

export const UtmTemplateCreateBody = Type.Object({
  name: Name,
  utm: UtmInput,
})

/** Every field optional; `utm` replaces the template's parameters as a whole. */
export const UtmTemplateUpdateBody = Type.Object({
  name: Type.Optional(Name),
  utm: Type.Optional(UtmInput),
})

export type UtmTemplateCreateInput = Static<typeof UtmTemplateCreateBody>
export type UtmTemplateUpdateInput = Static<typeof UtmTemplateUpdateBody>

const templateFields = {
  id: Type.Integer(),
  name: Type.String(),
  utm: UtmRecord,
  date: DateTime,
}

export const UtmTemplateEntry = Type.Object(templateFields)

export const UtmTemplateListResponse = listResponse('templates', UtmTemplateEntry)

export const UtmTemplateCreatedResponse = Type.Object({ error: Type.Literal(0), ...templateFields })
