// The API's types for the dashboard: the SDK's own (packages/client/src/schema.ts), which
// `npm run api:types` generates from the server's OpenAPI document. One generated file, not two.
export type { $defs, components, operations, paths, webhooks } from '../../../packages/client/src/schema'
