// What ACME servers, proxies and domain checks ask for, on any host: `GET /tls/allowed` (the `ask`
// of Caddy's on-demand TLS: 200 for names a certificate may be issued for), the HTTP-01 answers of
// our own orders, and a branded domain's ownership challenge (ADR 031).
import { Type } from 'typebox'
import type { App } from '../../http/app-instance.js'
import { errorResponses } from '../../http/schemas.js'
import { NotFoundError } from '../../core/errors.js'
import { hostnameOf } from '../visits/host-router.js'
import type { DomainService } from '../domains/domain.service.js'
import { CHALLENGE_PATH } from '../domains/domain-verification.js'
import type { CertificateManager } from './certificate-manager.js'

export interface CertificateRouteDependencies {
  domains: Pick<DomainService, 'isVerifiedHostname' | 'challengeAnswer'>
  /** Undefined without ACME_EMAIL: no order of ours waits for an answer. */
  certificates: Pick<CertificateManager, 'challengeAnswer'> | undefined
  /** PUBLIC_URL's host. */
  publicHostname: string
}

const TOKEN = Type.String({ pattern: '^[A-Za-z0-9_-]{1,200}$', errorMessage: 'must be a challenge token' })

export function registerCertificateRoutes(app: App, { domains, certificates, publicHostname }: CertificateRouteDependencies): void {
  app.get('/tls/allowed', {
    schema: {
      tags: ['domains'],
      summary: "200 when a certificate may be issued for `domain` (this service's host, or a branded domain a workspace has proven control of), 404 otherwise: the `ask` of Caddy's on-demand TLS",
      querystring: Type.Object({ domain: Type.String({ minLength: 1, maxLength: 253 }) }),
      response: { 200: Type.Object({ error: Type.Literal(0), message: Type.String() }), ...errorResponses },
    },
  }, async (request) => {
    const name = request.query.domain.trim().toLowerCase().replace(/\.$/, '')
    if (name !== publicHostname && !(await domains.isVerifiedHostname(name))) {
      throw new NotFoundError(`No certificate for ${name}: it is neither this service's host nor a branded domain whose control was proven.`)
    }
    return { error: 0 as const, message: `A certificate may be issued for ${name}.` }
  })

  const text = { 200: Type.String(), ...errorResponses }

  app.get('/.well-known/acme-challenge/:token', { schema: { hide: true, params: Type.Object({ token: TOKEN }), response: text } }, async (request, reply) => {
    const answer = await certificates?.challengeAnswer(request.params.token)
    if (answer === undefined) throw new NotFoundError('No such ACME challenge.')
    return reply.type('text/plain; charset=utf-8').send(answer)
  })

  app.get(`${CHALLENGE_PATH}:token`, { schema: { hide: true, params: Type.Object({ token: TOKEN }), response: text } }, async (request, reply) => {
    const answer = await domains.challengeAnswer(hostnameOf(request.headers.host), request.params.token)
    if (answer === undefined) throw new NotFoundError('No such domain challenge on this host.')
    return reply.type('text/plain; charset=utf-8').send(answer)
  })
}
