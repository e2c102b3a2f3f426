// JSON body parsing. Clients of this API send `Content-Type: application/json` on every request,
// bodiless GET/DELETE/assign calls included (spec, Authentication 2): an empty body is `{}`.
import type { FastifyInstance } from 'fastify'

export function installJsonBodyParser(app: FastifyInstance): void {
  // Fastify's own parser refuses `__proto__`/`constructor` pollution; we only add the empty case.
  const parseJson = app.getDefaultJsonParser('error', 'remove')
  app.removeContentTypeParser('application/json')
  // Fastify parses text/plain by default; the API takes JSON only, so any other body type is a 415.
  app.removeContentTypeParser('text/plain')
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    if ((body as string).trim() === '') return done(null, {})
    parseJson(request, body as string, done)
  })
}
