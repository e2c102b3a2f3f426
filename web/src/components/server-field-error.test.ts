// A refusal lands beside the field the envelope names, when the form shows it; otherwise on the
// form's error line. The form's names may differ from the request's (the new password is `password`).
import { describe, expect, it } from 'vitest'
import { ApiError } from '../api/client'
import { placeServerError, sameNames } from './server-field-error'

const duplicateName = new ApiError(400, 'You already have a channel with this name.', { code: 'duplicate', field: 'name' })

describe('placing a refusal', () => {
  it('puts it beside the field the envelope names, as the rule', () => {
    expect(placeServerError(duplicateName, ['name', 'color'])).toEqual({ field: 'name', message: 'You already have a channel with this name.' })
    const quoted = new ApiError(400, 'The field "color" must be a HEX color.', { code: 'validation_failed', field: 'color' })
    expect(placeServerError(quoted, ['name', 'color'])).toEqual({ field: 'color', message: 'Must be a HEX color.' })
  })

  it('leaves it for the form line when the form does not show that field, or no field is named', () => {
    expect(placeServerError(duplicateName, ['slug'])).toEqual({ message: 'You already have a channel with this name.' })
    const unnamed = new ApiError(400, 'A channel named "name" exists.', { code: 'duplicate' })
    expect(placeServerError(unnamed, ['name'])).toEqual({ message: 'A channel named "name" exists.' })
    expect(placeServerError(new Error('Offline'), ['name'])).toEqual({ message: 'Offline' })
  })

  it('maps the request\'s names to the form\'s', () => {
    const weak = new ApiError(400, 'The field "password" must be at least 8 characters.', { code: 'validation_failed', field: 'password' })
    const fields = (name: string) => (name === 'password' ? 'next' : undefined)
    expect(placeServerError(weak, fields)).toEqual({ field: 'next', message: 'Must be at least 8 characters.' })
    const rule = new ApiError(400, 'The field "blocks.2.url" must be an http or https URL.', { code: 'validation_failed', field: 'blocks.2.url' })
    expect(placeServerError(rule, sameNames)).toEqual({ field: 'blocks.2.url', message: 'Must be an http or https URL.' })
  })
})
