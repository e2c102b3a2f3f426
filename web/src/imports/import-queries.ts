// The imports' server state (issue 21): the account's past imports, and one import watched while
// it runs (asked again every second until it is done or failed); starting one.
import { keepPreviousData, useQuery } from '@tanstack/react-query'
import { useEffect } from 'react'
import { api, ApiError, unwrap } from '../api/client'
import { queryKeys } from '../api/query-keys'
import type { paths } from '../api/schema'
import { useRefresh, useWrite } from '../api/write-queries'

export type ImportDetails = paths['/api/import/{id}']['get']['responses'][200]['content']['application/json']['import']
export type ImportProblem = ImportDetails['problems'][number]
export type FileSource = NonNullable<paths['/api/import']['post']['requestBody']['content']['multipart/form-data']['source']>
export type ConflictChoice = NonNullable<paths['/api/import']['post']['requestBody']['content']['multipart/form-data']['onconflict']>

export const IMPORT_PAGE_SIZE = 10

/** Whether the server is still at it (the page keeps asking). */
export function isUnfinished(state: string): boolean {
  return state === 'queued' || state === 'running'
}

export function useImport(id: number | undefined) {
  return useQuery({
    queryKey: queryKeys.imports.one(id),
    enabled: id !== undefined,
    queryFn: async () => (await unwrap(api.GET('/api/import/{id}', { params: { path: { id: id! } } }))).import,
    // Every second while it runs; a finished import does not change.
    refetchInterval: (query) => (query.state.data && !isUnfinished(query.state.data.state) ? false : 1_000),
    // An import that is not there (another workspace's, a mistyped address) will not appear on a retry.
    retry: (count, error) => count < 2 && !(error instanceof ApiError && error.status === 404),
  })
}

export function useImportPage(page: number, watching: boolean) {
  return useQuery({
    queryKey: queryKeys.imports.page(page),
    placeholderData: keepPreviousData,
    queryFn: async () => (await unwrap(api.GET('/api/imports', { params: { query: { page, limit: IMPORT_PAGE_SIZE } } }))).data,
    // The list's states move on with the import being watched.
    refetchInterval: watching ? 3_000 : false,
  })
}

/** The import the page shows; once it ends, the links it made, the plan usage and the past imports are asked again. */
export function useWatchedImport(id: number) {
  const job = useImport(id)
  const refresh = useRefresh()
  const state = job.data?.state
  useEffect(() => {
    if (state === 'done' || state === 'failed') void refresh([queryKeys.links.all, queryKeys.account.usage, queryKeys.imports.pages])
  }, [state, refresh])
  return job
}

/** What an import is started with: the file, and the form's fields that ride in the same multipart body. */
interface ImportStart {
  file: File
  source: FileSource
  onconflict: ConflictChoice
  map: string
}

/** Sends the file; answers the new import's id. */
export function useStartImport() {
  return useWrite({ send: startImport, refreshes: [queryKeys.imports.pages] })
}

async function startImport({ file, ...fields }: ImportStart): Promise<number> {
  const started = await unwrap(api.POST('/api/import', {
    // The generated type names the file part as a string (OpenAPI's binary format); the serializer puts the File itself there.
    body: { file: file.name, source: fields.source, onconflict: fields.onconflict, ...(fields.map.trim() ? { map: fields.map.trim() } : {}) },
    bodySerializer: (body) => {
      const form = new FormData()
      form.set('source', body.source ?? 'csv')
      form.set('onconflict', body.onconflict ?? 'skip')
      if (body.map) form.set('map', body.map)
      form.set('file', file, file.name)
      return form
    },
  }))
  return started.id
}
