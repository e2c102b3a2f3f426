// POST /api/import (a file, multipart/form-data), GET /api/import/{id}, GET /api/import/{id}/report
// (the whole report as CSV, issue 42), GET /api/imports (issue 21).
import { Readable } from 'node:stream'
import type { FastifyReply } from 'fastify'
import { Type } from 'typebox'
import type { App } from '../../http/app-instance.js'
import { accountOf } from '../../http/auth.js'
import type { ListEnvelope } from '../../http/list.js'
import { ErrorEnvelope, errorResponses } from '../../http/schemas.js'
import { registerUploadScope, skipBodyValidation, uploadProblemOf } from '../../http/uploads.js'
import { IdParams, PageQuery } from '../../core/schemas.js'
import { toPageRequest } from '../../core/paging.js'
import { ValidationError } from '../../core/errors.js'
import { CONFLICT_CHOICES, type ConflictChoice } from '../links/link-batch.js'
import { FILE_SOURCES, type FileSource, type ImportService } from './import.service.js'
import type { ImportWorker } from './import-worker.js'
import { ImportDetailsResponse, ImportListResponse, ImportReportQuery, ImportStartedResponse, ImportUploadBody, toImportProblem, toImportSummary } from './import.schemas.js'

const tags = ['imports']

/** Fastify's own "too large" error: answered in the envelope with 413 once the client stops sending (http/error-handler.ts). */
function tooLarge(): Error {
  return Object.assign(new Error('The file is too large.'), { code: 'FST_ERR_CTP_BODY_TOO_LARGE', statusCode: 413 })
}

/** Sends `lines` as a CSV download named `fileName`, streamed (a report may hold a row per link). */
function sendCsv(reply: FastifyReply, fileName: string, lines: AsyncIterable<string>) {
  return reply.type('text/csv; charset=utf-8').header('content-disposition', `attachment; filename="${fileName}"`).send(Readable.from(lines))
}

export interface ImportRouteDependencies {
  imports: ImportService
  worker: ImportWorker
  listEnvelope: ListEnvelope
  /** The largest file taken (IMPORT_MAX_BYTES). */
  maxBytes: number
}

export function registerImportRoutes(app: App, { imports, worker, listEnvelope, maxBytes }: ImportRouteDependencies): void {
  registerUploadScope(app, { fileSize: maxBytes, fieldSize: 2048 }, (scope) => {
    scope.post('/api/import', {
      schema: {
        tags,
        summary: 'Import links from a CSV file or a Bitly export, in the background',
        description: `multipart/form-data: \`file\` (at most ${Math.round(maxBytes / 1024 / 1024)} MB, IMPORT_MAX_BYTES), \`source\`, \`onconflict\`, \`map\`. ` +
          'Answers 202 with the import\'s id at once; `GET /api/import/{id}` tells its progress, counts and the rows not imported with their line and reason. ' +
          'A link the account already has (same domain, alias and destination) is not imported again; the same alias with another destination, or in another letter case, is a conflict (`onconflict`).',
        consumes: ['multipart/form-data'],
        body: ImportUploadBody,
        response: { 202: ImportStartedResponse, 413: ErrorEnvelope, 415: ErrorEnvelope, ...errorResponses },
      },
      validatorCompiler: skipBodyValidation,
    }, async (request, reply) => {
      // Refused before a byte of it is read: a 2 GB upload says its size first.
      if (Number(request.headers['content-length'] ?? 0) > maxBytes + 64 * 1024) throw tooLarge()
      if (!request.isMultipart()) {
        throw Object.assign(new Error('Send the file as multipart/form-data.'), { code: 'FST_ERR_CTP_INVALID_MEDIA_TYPE', statusCode: 415 })
      }
      const fields: Record<string, string> = {}
      let file: { name: string; content: string } | undefined
      try {
        for await (const part of request.parts()) {
          if (part.type === 'file') file = { name: part.filename || 'upload.csv', content: (await part.toBuffer()).toString('utf8') }
          else fields[part.fieldname] = String(part.value)
        }
      } catch (error) {
        if (uploadProblemOf(error) !== 'unreadable') throw tooLarge()
        throw new ValidationError('The upload could not be read: send one file as multipart/form-data.', 'file')
      }
      if (!file) throw ValidationError.field('file', 'is required: attach a CSV file')
      const source = (fields.source || 'csv') as FileSource
      if (!FILE_SOURCES.includes(source)) throw ValidationError.field('source', `must be one of ${FILE_SOURCES.join(', ')}`)
      const onconflict = (fields.onconflict || 'skip') as ConflictChoice
      if (!CONFLICT_CHOICES.includes(onconflict)) throw ValidationError.field('onconflict', `must be one of ${CONFLICT_CHOICES.join(', ')}`)
      const id = await imports.startFileImport(accountOf(request), { source, fileName: file.name, content: file.content, options: { onconflict, ...(fields.map ? { map: fields.map } : {}) } })
      worker.wake()
      return reply.code(202).send({ error: 0 as const, id, state: 'queued' })
    })
  })

  app.get('/api/import/:id', {
    schema: { tags, summary: 'An import: its state, counts and the rows not imported as given', params: IdParams, response: { 200: ImportDetailsResponse, ...errorResponses } },
  }, async (request) => {
    const { job, problems } = await imports.getImport(accountOf(request).id, request.params.id)
    return { error: 0 as const, import: { ...toImportSummary(job), problems: problems.map(toImportProblem) } }
  })

  app.get('/api/import/:id/report', {
    schema: {
      tags,
      summary: 'An import\'s whole report as CSV: every row not imported as given, what happened and why, its old and new address',
      params: IdParams,
      querystring: ImportReportQuery,
      response: { 200: Type.String({ description: 'the CSV file: line, key, action, old_alias, new_alias, reason' }), ...errorResponses },
    },
  }, async (request, reply) => {
    const lines = await imports.reportLines(accountOf(request).id, request.params.id)
    return sendCsv(reply, `linkwell-import-${request.params.id}-report.csv`, lines)
  })

  app.get('/api/imports', {
    schema: { tags, summary: 'The account\'s imports, newest first', querystring: PageQuery, response: { 200: ImportListResponse, ...errorResponses } },
  }, async (request) => {
    const page = toPageRequest(request.query)
    const { rows, total } = await imports.listImports(accountOf(request).id, page)
    return listEnvelope('imports', page, total, rows.map(toImportSummary))
  })
}
