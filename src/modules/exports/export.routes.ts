// GET /api/export/links, GET /api/export/clicks (issue 21) and GET /api/export/conversions (issue 39): everything out again, streamed.
import { Readable } from 'node:stream'
import type { FastifyReply } from 'fastify'
import { Type } from 'typebox'
import type { App } from '../../http/app-instance.js'
import type { ExportService } from './export.service.js'
import { accountOf } from '../../http/auth.js'
import { errorResponses } from '../../http/schemas.js'
import { ClickExportQuery, ConversionExportQuery, LinkExportQuery } from './export.schemas.js'
import { nowTimestamp } from '../../core/time.js'

const tags = ['export']
const CONTENT_TYPES = { csv: 'text/csv; charset=utf-8', json: 'application/json; charset=utf-8', ndjson: 'application/x-ndjson; charset=utf-8' } as const

/** Lines gathered into chunks of about `bytes`: one write per chunk, not one per row. */
async function* chunked(lines: AsyncIterable<string>, bytes = 64 * 1024): AsyncGenerator<string> {
  let chunk = ''
  for await (const line of lines) {
    chunk += line
    if (chunk.length >= bytes) {
      yield chunk
      chunk = ''
    }
  }
  if (chunk) yield chunk
}

/** Sends `lines` as a download named by what it holds and the day (two exports in a folder keep apart). */
function sendFile(reply: FastifyReply, what: string, format: keyof typeof CONTENT_TYPES, lines: AsyncIterable<string>) {
  return reply
    .type(CONTENT_TYPES[format])
    .header('content-disposition', `attachment; filename="linkwell-${what}-${nowTimestamp().slice(0, 10)}.${format}"`)
    .send(Readable.from(chunked(lines)))
}

/** What the routes use, handed over by app.ts. */
export interface ExportRouteDependencies {
  exports: ExportService
}

export function registerExportRoutes(app: App, { exports }: ExportRouteDependencies): void {
  app.get('/api/export/links', {
    schema: {
      tags,
      summary: 'Every link of the account with every field the API shows, as CSV or JSON',
      description: 'Streamed, so the answer of a large account starts at once and the server\'s memory stays flat. The same fields as `GET /api/url/{id}` (`details`), plus `campaignname` and `channel` (the name of the channel the link is in; the one it joined first when it is in several).',
      querystring: LinkExportQuery,
      response: { 200: Type.String({ description: 'the file' }), ...errorResponses },
    },
  }, async (request, reply) => {
    const format = request.query.format ?? 'csv'
    return sendFile(reply, 'links', format, exports.linkLines(accountOf(request).id, format))
  })

  app.get('/api/export/clicks', {
    schema: {
      tags,
      summary: 'The account\'s raw clicks with their enriched fields, as CSV or NDJSON',
      description: 'Every recorded click (of links, QR codes, rotators and bio pages) between `from` and `to`, oldest first, streamed. Clicks older than CLICK_RETENTION_DAYS may have been pruned; statistics keep them counted.',
      querystring: ClickExportQuery,
      response: { 200: Type.String({ description: 'the file' }), ...errorResponses },
    },
  }, async (request, reply) => {
    const format = request.query.format ?? 'csv'
    // Checked before the answer starts: a bad range is still an envelope, not a broken file.
    const range = exports.clickRange(request.query)
    return sendFile(reply, 'clicks', format, exports.clickLines(accountOf(request).id, range, format))
  })

  app.get('/api/export/conversions', {
    schema: {
      tags,
      summary: 'The account\'s leads and sales with the link, campaign and channel they are attributed to, as CSV or NDJSON',
      description: 'Every lead and sale (refunds: negative amounts, in minor units of `currency`) created between `from` and `to`, oldest first, streamed. `type` is `lead` or `sale`; a lead has no amount. `customeremail` only while the workspace keeps customers\' e-mail addresses (`customeremails`); a deleted customer\'s sales carry no customer. A deleted link\'s conversions keep its id, without alias, campaign or channel.',
      querystring: ConversionExportQuery,
      response: { 200: Type.String({ description: 'the file' }), ...errorResponses },
    },
  }, async (request, reply) => {
    const format = request.query.format ?? 'csv'
    const range = exports.clickRange(request.query)
    return sendFile(reply, 'conversions', format, exports.conversionLines(accountOf(request).id, range, format))
  })
}
