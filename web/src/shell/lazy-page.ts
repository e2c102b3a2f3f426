// A route's page, loaded when the route is first opened: each page is its own chunk.
import type { ComponentType } from 'react'

export function lazyPage<T extends Record<string, unknown>>(load: () => Promise<T>, name: keyof T) {
  return async () => ({ Component: (await load())[name] as ComponentType })
}
