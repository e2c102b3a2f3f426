// oidc-provider 8 ships no types; the tests use a small part of it (test/helpers/identity-provider.ts).
declare module 'oidc-provider' {
  import type { IncomingMessage, ServerResponse } from 'node:http'
  export default class Provider {
    constructor(issuer: string, configuration: Record<string, unknown>)
    proxy: boolean
    callback(): (request: IncomingMessage, response: ServerResponse) => void
    interactionDetails(request: IncomingMessage, response: ServerResponse): Promise<{ uid: string; prompt: { name: string; details: Record<string, unknown> }; params: Record<string, unknown> }>
    interactionFinished(request: IncomingMessage, response: ServerResponse, result: Record<string, unknown>, options?: { mergeWithLastSubmission?: boolean }): Promise<void>
    Grant: any
    on(event: string, listener: (...args: any[]) => void): void
  }
}
