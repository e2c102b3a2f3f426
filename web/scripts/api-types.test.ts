// @vitest-environment node
// The checked-in web/src/api/schema.d.ts is what `npm run api:types` makes of the current server.
import fs from 'node:fs'
import { expect, it } from 'vitest'
import { generateApiTypes, SCHEMA_FILE } from './api-types.js'

it('web/src/api/schema.d.ts matches the server\'s OpenAPI document (run `npm run api:types`)', async () => {
  const generated = await generateApiTypes()
  expect(fs.readFileSync(SCHEMA_FILE, 'utf8') === generated, 'schema.d.ts is stale: run `npm run api:types`').toBe(true)
}, 60_000)
