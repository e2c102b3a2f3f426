// A value once it has stopped changing: previews ask the server a moment after the last key, not once per key.
import { useEffect, useState } from 'react'

/** `value` (compared by its JSON text), once it has stayed the same for `delay` ms. */
export function useSettled<T>(value: T, delay = 350): T {
  const [settled, setSettled] = useState(value)
  const text = JSON.stringify(value)
  useEffect(() => {
    const timer = setTimeout(() => setSettled(JSON.parse(text) as T), delay)
    return () => clearTimeout(timer)
  }, [text, delay])
  return settled
}
