// Deleting one of the account's records behind a confirmation: the feature's deletion (a write of
// its *-queries.ts, which asks again for the lists that show the record and for the plan usage
// that counts it), then the dialog closes.
import type { UseMutationResult } from '@tanstack/react-query'
import type { ReactNode } from 'react'
import { messageOf } from '../api/client'
import { ConfirmDialog } from './ConfirmDialog'

interface DeleteRecordDialogProps {
  title: string
  confirmLabel: string
  /** The deletion of records of this kind, by id (`useDeleteLink()`, …). */
  deletion: UseMutationResult<unknown, Error, number>
  /** The record's id. */
  id: number
  onClose(): void
  onDeleted?(): void
  children: ReactNode
}

export function DeleteRecordDialog({ title, confirmLabel, deletion, id, onClose, onDeleted, children }: DeleteRecordDialogProps) {
  const confirm = () => deletion.mutate(id, {
    onSuccess: () => {
      onClose()
      onDeleted?.()
    },
  })
  return (
    <ConfirmDialog title={title} confirmLabel={confirmLabel} busy={deletion.isPending} error={deletion.isError ? messageOf(deletion.error) : undefined} onConfirm={confirm} onCancel={onClose}>
      {children}
    </ConfirmDialog>
  )
}
