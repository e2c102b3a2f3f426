// Request and response schemas of the CTA overlay endpoints (spec: CTA overlays; decisions §6).
import { Type } from 'typebox'
import { Clearable, DateTime, HexColor, HttpUrl, listResponse, MULTILINE, UpdateBody } from '../../core/schemas.js'

/** spec: values observed `message` and `contact`. */
export const OVERLAY_TYPES = ['message', 'contact'] as const
export type OverlayType = (typeof OVERLAY_TYPES)[number]

export const OVERLAY_NAME_RULE = 'must be 2 to 100 characters'


const Name = Type.String({ minLength: 2, maxLength: 100, errorMessage: OVERLAY_NAME_RULE })
const Color = (meaning: string) => Clearable(HexColor, meaning, { errorMessage: 'must be a HEX color like #1e90ff or #fff, or empty' })

// Every type's fields, validated wherever they are sent; the service stores only the overlay
// type's own. `""` removes a clearable field (ADR 013).
const overlayFields = {
  // `message` overlays
  message: Type.Optional(Type.String({ minLength: 1, maxLength: 500, ...MULTILINE, errorMessage: 'must be 1 to 500 characters' })),
  label: Type.Optional(Clearable(Type.String({ maxLength: 50, errorMessage: 'must be text of at most 50 characters' }), 'no button text')),
  link: Type.Optional(Clearable(HttpUrl, 'no button link')),
  color: Type.Optional(Color('the default text color')),
  bg: Type.Optional(Color('the default background')),
  // `contact` overlays (plus `label`, the button text)
  title: Type.Optional(Clearable(Type.String({ maxLength: 100, errorMessage: 'must be text of at most 100 characters' }), 'no title')),
  description: Type.Optional(Clearable(Type.String({ maxLength: 500, ...MULTILINE, errorMessage: 'must be text of at most 500 characters' }), 'no description')),
  email: Type.Optional(Type.String({ maxLength: 254, pattern: '^[^\\s@]+@[^\\s@]+\\.[^\\s@]+$', errorMessage: 'must be a valid e-mail address' })),
}

export const OverlayCreateBody = Type.Object({
  type: Type.Enum(OVERLAY_TYPES, { errorMessage: `must be one of ${OVERLAY_TYPES.join(', ')}` }),
  name: Name,
  ...overlayFields,
})

/** The type is fixed at creation and not read from an update. */
export const OverlayUpdateBody = UpdateBody({
  name: Type.Optional(Name),
  ...overlayFields,
})

export const OverlayListEntry = Type.Object({
  id: Type.Integer(),
  type: Type.String(),
  name: Type.String(),
  date: DateTime,
})

// Stored fields as the editor reads them back: only those of the overlay's type are present.
const storedText = Type.Optional(Type.String())
export const OverlayDetailsResponse = Type.Object({
  error: Type.Literal(0),
  data: Type.Object({
    ...OverlayListEntry.properties,
    message: storedText, label: storedText, link: storedText, color: storedText, bg: storedText,
    title: storedText, description: storedText, email: storedText,
  }),
})

export const ContactEntry = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  email: Type.String(),
  message: Type.String(),
  linkid: Type.Union([Type.Integer(), Type.Null()], { description: 'the short link the form was sent from; null once that link is deleted' }),
  date: DateTime,
})

export const ContactListResponse = listResponse('contacts', ContactEntry)

export const OverlayListResponse = listResponse('cta', OverlayListEntry)

export const OverlayCreatedResponse = Type.Object({ error: Type.Literal(0), id: Type.Integer() })

export type OverlayCreateInput = Type.Static<typeof OverlayCreateBody>
export type OverlayUpdateInput = Type.Static<typeof OverlayUpdateBody>
