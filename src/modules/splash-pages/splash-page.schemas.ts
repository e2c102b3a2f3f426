// Request and response schemas of the custom splash page endpoints (spec: Custom splash pages;
// decisions §6 adds create, update and delete).
import { Type } from 'typebox'
import { Clearable, DateTime, HttpUrl, listResponse, MULTILINE, UpdateBody } from '../../core/schemas.js'

export const SPLASH_NAME_RULE = 'must be 2 to 100 characters'
export const SPLASH_TITLE_RULE = 'must be 1 to 100 characters'
/** Seconds the page shows before the visitor goes on, when the client sets none (and the generic interstitial's). */
export const DEFAULT_SPLASH_COUNTER = 5
/** The longest a splash page may hold a visitor, in seconds. */
export const MAX_SPLASH_COUNTER = 60

const Name = Type.String({ minLength: 2, maxLength: 100, errorMessage: SPLASH_NAME_RULE })
const splashFields = {
  description: Type.Optional(Clearable(Type.String({ maxLength: 1000, ...MULTILINE, errorMessage: 'must be text of at most 1000 characters' }), 'no description')),
  image: Type.Optional(Clearable(HttpUrl, 'no image')),
  /** The "product" link the page promotes. */
  link: Type.Optional(Clearable(HttpUrl, 'no link')),
  counter: Type.Optional(Type.Integer({ minimum: 0, maximum: MAX_SPLASH_COUNTER, errorMessage: `must be a whole number of seconds from 0 to ${MAX_SPLASH_COUNTER}` })),
}

const Title = Type.String({ minLength: 1, maxLength: 100, errorMessage: SPLASH_TITLE_RULE })

export const SplashPageCreateBody = Type.Object({
  name: Name,
  title: Title,
  ...splashFields,
})

export const SplashPageUpdateBody = UpdateBody({
  name: Type.Optional(Name),
  title: Type.Optional(Title),
  ...splashFields,
})

export const SplashPageListEntry = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  date: DateTime,
})

export const SplashPageDetailsResponse = Type.Object({
  error: Type.Literal(0),
  data: Type.Object({
    ...SplashPageListEntry.properties,
    title: Type.String(),
    description: Type.Optional(Type.String()),
    image: Type.Optional(Type.String()),
    link: Type.Optional(Type.String()),
    counter: Type.Integer(),
  }),
})

export const SplashPageListResponse = listResponse('splash', SplashPageListEntry)

export const SplashPageCreatedResponse = Type.Object({ error: Type.Literal(0), id: Type.Integer() })

export type SplashPageCreateInput = Type.Static<typeof SplashPageCreateBody>
export type SplashPageUpdateInput = Type.Static<typeof SplashPageUpdateBody>
