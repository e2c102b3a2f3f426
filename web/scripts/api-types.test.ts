// @vitest-environment node
// The checked-in packages/client/src/schema.ts (which the dashboard's web/src/api/schema.d.ts
// re-exports) is what `npm run api:types` makes of the current server.
import fs from 'node:fs'
import path from 'node:path'
import { expect, it } from 'vitest'
import { generateApiTypes, SCHEMA_FILES } from './api-types.js'

it('the dashboard\'s and the SDK\'s schema files match the server\'s OpenAPI document (run `npm run api:types`)', async () => {
  const generated = await generateApiTypes()
  for (const file of SCHEMA_FILES) {
    const current = fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : ''
    expect(current === generated, `${path.relative(process.cwd(), file)} is stale: run \`npm run api:types\``).toBe(true)
  }
}, 60_000)
