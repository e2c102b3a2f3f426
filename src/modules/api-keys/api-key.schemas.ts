// Request and response schemas of the account's API keys: GET /api/keys, POST /api/key/add, DELETE /api/key/{id}/delete.
import { Type } from 'typebox'
import { DateTime, Id, NullMeans } from '../../core/schemas.js'
import { TIMESTAMP_INPUT_PATTERN } from '../../core/time.js'
import { API_KEY_RESOURCES } from '../access/api-key-scopes.js'

const Resource = Type.Enum([...API_KEY_RESOURCES])
const Scopes = Type.Union([Type.Array(Resource, { minItems: 1, maxItems: API_KEY_RESOURCES.length }), Type.Null()], {
  description: 'resources the key reaches; null: all of them',
})

export const KeyCreateBody = Type.Object({
  name: Type.Optional(Type.String({ minLength: 1, maxLength: 100, description: 'default `key`', errorMessage: 'must be 1 to 100 characters' })),
  expires: Type.Optional(
    NullMeans(Type.String({ pattern: TIMESTAMP_INPUT_PATTERN }), 'never (as when left out)', {
      description: 'UTC `YYYY-MM-DD HH:MM:SS` or `YYYY-MM-DD`, in the future',
      errorMessage: 'must be a date-time YYYY-MM-DD HH:MM:SS, a date YYYY-MM-DD or null',
    }),
  ),
  scopes: Type.Optional(Type.Array(Resource, { minItems: 1, maxItems: API_KEY_RESOURCES.length, errorMessage: `must be a list of resources among ${API_KEY_RESOURCES.join(', ')}` })),
  readonly: Type.Optional(Type.Boolean({ errorMessage: 'must be true or false' })),
})

const KeyFields = {
  id: Type.Integer(),
  scopes: Scopes,
  readonly: Type.Boolean(),
}

export const KeyCreatedResponse = Type.Object({
  error: Type.Literal(0),
  ...KeyFields,
  name: Type.String(),
  prefix: Type.String({ description: 'the first 8 characters of the key, to tell keys apart' }),
  expires: Type.Union([DateTime, Type.Null()], { description: 'null: never expires' }),
  key: Type.String({ description: 'shown once; only its hash is stored' }),
})

export const KeyListResponse = Type.Object({
  error: Type.Literal(0),
  data: Type.Array(Type.Object({
    ...KeyFields,
    name: Type.String(),
    prefix: Type.String({ description: 'the first 8 characters of the key, to tell keys apart' }),
    expires: Type.Union([DateTime, Type.Null()], { description: 'null: never expires' }),
    created: DateTime,
    lastused: Type.Union([DateTime, Type.Null()], { description: 'last request made with the key, to the minute; null: never' }),
  })),
})

export const KeyParams = Type.Object({ id: Id })
