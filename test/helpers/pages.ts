// What a visitor's browser gets on an error: an HTML page with its status, never the API envelope.
import type { LightMyRequestResponse } from 'fastify'
import { expect } from 'vitest'

/** Asserts an HTML page with `status` whose text contains each of `texts` (HTML-escaped as served). */
export function expectPage(response: LightMyRequestResponse, status: number, ...texts: string[]): void {
  expect(response.statusCode).toBe(status)
  expect(response.headers['content-type']).toBe('text/html; charset=utf-8')
  expect(response.payload).toMatch(/^<!doctype html>/)
  for (const text of texts) expect(response.payload).toContain(text)
}
