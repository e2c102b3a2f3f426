// Deleting one of the account's records behind a confirmation: the request, then the lists that
// show it (and the plan usage, which counts it) are asked again, and the dialog closes.
import { useMutation, useQueryClient, type QueryKey } from '@tanstack/react-query'
import type { ReactNode } from 'react'
import { useRefreshUsage } from '../account/account-queries'
import { messageOf } from '../api/client'
import { ConfirmDialog } from './ConfirmDialog'

interface DeleteRecordDialogProps {
  title: string
  confirmLabel: string
  /** The DELETE request. */
  remove(): Promise<unknown>
  /** The queries that list the record (each refreshed after the deletion). */
  lists: QueryKey[]
  onClose(): void
  onDeleted?(): void
  children: ReactNode
}

export function DeleteRecordDialog({ title, confirmLabel, remove, lists, onClose, onDeleted, children }: DeleteRecordDialogProps) {
  const queryClient = useQueryClient()
  const refreshUsage = useRefreshUsage()
  const deletion = useMutation({
    mutationFn: remove,
    onSuccess: async () => {
      await Promise.all([...lists.map((queryKey) => queryClient.invalidateQueries({ queryKey })), refreshUsage()])
      onClose()
      onDeleted?.()
    },
  })
  return (
    <ConfirmDialog title={title} confirmLabel={confirmLabel} busy={deletion.isPending} error={deletion.isError ? messageOf(deletion.error) : undefined} onConfirm={() => deletion.mutate()} onCancel={onClose}>
      {children}
    </ConfirmDialog>
  )
}
