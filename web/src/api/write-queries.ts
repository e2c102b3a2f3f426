// How the dashboard writes. Every change sent to the server is a mutation defined in its feature's
// *-queries.ts, beside the reads it changes, and declares those reads by their keys (query-keys.ts):
// once the server has accepted it, they are marked stale and those on screen asked again, before
// `mutateAsync` resolves and before a page's own `onSuccess` runs, so a page that goes back to a
// list finds it current. Pages call the hooks; none touches the cache itself.
import { useMutation, useQueryClient, type QueryKey } from '@tanstack/react-query'
import { useCallback } from 'react'
import { queryKeys } from './query-keys'

export interface WriteOptions<Input, Result> {
  /** The request; a throw (ApiError) is a refusal. */
  send(input: Input): Promise<Result>
  /** The reads the write changes: their keys, or the keys for this input. */
  refreshes: readonly QueryKey[] | ((input: Input) => readonly QueryKey[])
  /**
   * Reads asked again even when not on screen (the list a form goes back to then shows no old page
   * first). Only these: another record's details kept from an earlier page (one another account
   * refused with a 404, say) are not asked again behind the person's back.
   */
  refreshHidden?: readonly QueryKey[] | ((input: Input) => readonly QueryKey[])
  /** Refreshes after a refusal too: it may say that what is shown is out of date (a member someone else removed). */
  refreshAfterRefusal?: boolean
}

/** Marks the queries under each key stale and asks again those on screen (`hidden`: all); resolves once they have answered. */
export function useRefresh(): (keys: readonly QueryKey[], options?: { hidden?: boolean }) => Promise<void> {
  const queryClient = useQueryClient()
  return useCallback(async (keys, options = {}) => {
    await Promise.all(keys.map((queryKey) => queryClient.invalidateQueries({ queryKey, refetchType: options.hidden ? 'all' : 'active' })))
  }, [queryClient])
}

/** A write with the reads it changes declared beside it. */
export function useWrite<Input = void, Result = unknown>({ send, refreshes, refreshHidden, refreshAfterRefusal }: WriteOptions<Input, Result>) {
  const refresh = useRefresh()
  const keysFor = (keys: WriteOptions<Input, Result>['refreshes'] | undefined, input: Input) => (typeof keys === 'function' ? keys(input) : keys ?? [])
  const refreshFor = async (input: Input) => {
    await Promise.all([refresh(keysFor(refreshes, input)), refresh(keysFor(refreshHidden, input), { hidden: true })])
  }
  return useMutation<Result, Error, Input>({
    mutationFn: send,
    ...(refreshAfterRefusal ? { onSettled: (_result, _error, input) => refreshFor(input) } : { onSuccess: (_result, input) => refreshFor(input) }),
  })
}

/**
 * Creating or deleting a record the plan counts: the write refreshes the plan usage too ("3 of 10
 * links" and the create buttons' limits), beside the reads it declares.
 */
export function useCountedWrite<Input = void, Result = unknown>(options: WriteOptions<Input, Result>) {
  const { refreshes } = options
  return useWrite({ ...options, refreshes: (input: Input) => [...(typeof refreshes === 'function' ? refreshes(input) : refreshes), queryKeys.account.usage] })
}
