// JSON body parsing. Clients of this API send `Content-Type: application/json` on every request,
// bodiless GET/DELETE/assign calls included (spec, Authentication 2): an empty body is `{}`.
import type { FastifyInstance } from 'fastify'

export function installJsonBodyParser(app: FastifyInstance): void {
  // Fastify's own parser refuses `__proto__`/`constructor` pollution; we only add the empty case.
  const parseJson = app.getDefaultJsonParser('error', 'remove')
  app.removeContentTypeParser('application/json')
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    if ((body as string).trim() === '') return done(null, {})
    parseJson(request, body as string, done)
  })
}
