// The link builder as a person uses it: by label, with the client's checks and the server's
// messages shown beside the field they name. Text goes in as a paste (`fill`): no test here is
// about keystrokes, and typing re-renders the whole form once a character.
import { fireEvent, render, screen, waitFor } from '@testing-library/react'
import { MemoryRouter } from 'react-router'
import { describe, expect, it, vi } from 'vitest'
import { ApiError } from '../api/client'
import { fill, setupUser } from '../test-setup'
import { LinkForm, type LinkFormOptions } from './LinkForm'
import { emptyLinkForm, toCreateBody, type LinkFormValues } from './link-form'

const options: LinkFormOptions = {
  domains: [{ id: 3, domain: 'https://go.example.com' }],
  campaigns: [{ id: 7, name: 'Spring sale' }],
  channels: [{ id: 9, name: 'Newsletter' }],
  pixels: [{ id: 11, name: 'Main GTM', type: 'gtmpixel' }],
  splashPages: [{ id: 5, name: 'Welcome' }],
  overlays: [{ id: 6, name: 'Subscribe' }],
  utmTemplates: [{ id: 4, name: 'Newsletter', utm: { source: 'newsletter', medium: 'email' } }],
}

function renderForm(onSubmit: (values: LinkFormValues) => Promise<unknown>) {
  return render(<LinkForm mode="create" initial={emptyLinkForm} options={options} submitLabel="Create link" onSubmit={onSubmit} />)
}

/** The text of the error a control points at (aria-describedby). */
function describedText(element: HTMLElement): string {
  return (element.getAttribute('aria-describedby') ?? '').split(' ').map((id) => document.getElementById(id)?.textContent ?? '').join(' ')
}

describe('the link form', () => {
  it('labels every control', () => {
    renderForm(vi.fn())
    for (const label of ['Destination URL', 'Domain', 'Alias (optional)', 'Link type', 'Expires (optional)', 'Password (optional)', 'Campaign (optional)', 'Channel (optional)', 'Main GTM (gtmpixel)', 'Meta title (optional)', 'Meta description (optional)', 'Click limit (optional)', 'Once expired, send visitors to (optional)', 'UTM source (optional)', 'UTM template (optional)', 'iOS app link (optional)', 'Android app link (optional)']) {
      expect(screen.getByLabelText(label)).toBeTruthy()
    }
  })

  it('checks the fields before sending and says what is wrong beside each', async () => {
    const user = setupUser()
    const onSubmit = vi.fn()
    renderForm(onSubmit)
    await fill(user, screen.getByLabelText('Destination URL'), 'javascript:alert(1)')
    await fill(user, screen.getByLabelText('Alias (optional)'), 'no spaces allowed')
    await user.click(screen.getByRole('button', { name: 'Add country rule' }))
    await fill(user, screen.getByLabelText('Country 1 destination'), 'ftp://files.example.com')
    await user.click(screen.getByRole('button', { name: 'Create link' }))

    expect(onSubmit).not.toHaveBeenCalled()
    expect(screen.getByRole('alert').textContent).toContain('need a fix')
    expect(describedText(screen.getByLabelText('Destination URL'))).toContain('http:// or https://')
    expect(describedText(screen.getByLabelText('Alias (optional)'))).toContain('3 to 64')
    expect(describedText(screen.getByLabelText('Country 1'))).toContain('Choose a country')
    expect(describedText(screen.getByLabelText('Country 1 destination'))).toContain('http or https')
    expect(screen.getByLabelText('Destination URL').getAttribute('aria-invalid')).toBe('true')
  })

  it('refuses an expiry in the past and a second rule for the same device', async () => {
    const user = setupUser()
    const onSubmit = vi.fn()
    renderForm(onSubmit)
    await fill(user, screen.getByLabelText('Destination URL'), 'https://example.com')
    fireEvent.change(screen.getByLabelText('Expires (optional)'), { target: { value: '2020-01-01T10:00' } })
    await user.click(screen.getByRole('button', { name: 'Add device rule' }))
    await user.click(screen.getByRole('button', { name: 'Add device rule' }))
    await user.selectOptions(screen.getByLabelText('Device 1'), 'iphone')
    await user.selectOptions(screen.getByLabelText('Device 2'), 'iphone')
    await fill(user, screen.getByLabelText('Device 1 destination'), 'https://apps.apple.com/x')
    await fill(user, screen.getByLabelText('Device 2 destination'), 'https://apps.apple.com/y')
    await user.click(screen.getByRole('button', { name: 'Create link' }))

    expect(onSubmit).not.toHaveBeenCalled()
    expect(describedText(screen.getByLabelText('Expires (optional)'))).toContain('future')
    expect(describedText(screen.getByLabelText('Device 2'))).toContain('has a rule already')
    expect(describedText(screen.getByLabelText('Device 1'))).toBe('')
  })

  it('sends every option that was filled in', async () => {
    const user = setupUser()
    const onSubmit = vi.fn(async () => {})
    renderForm(onSubmit)
    await fill(user, screen.getByLabelText('Destination URL'), ' https://example.com/spring ')
    await fill(user, screen.getByLabelText('Alias (optional)'), 'spring-sale')
    await user.selectOptions(screen.getByLabelText('Domain'), '3')
    await user.selectOptions(screen.getByLabelText('Link type'), 'overlay-6')
    await user.selectOptions(screen.getByLabelText('Campaign (optional)'), '7')
    await user.selectOptions(screen.getByLabelText('Channel (optional)'), '9')
    await user.click(screen.getByLabelText('Main GTM (gtmpixel)'))
    await fill(user, screen.getByLabelText('Password (optional)'), 'open sesame')
    await fill(user, screen.getByLabelText('Meta title (optional)'), 'Spring sale')
    await user.click(screen.getByRole('button', { name: 'Add country rule' }))
    await user.selectOptions(screen.getByLabelText('Country 1'), 'FR')
    await fill(user, screen.getByLabelText('Country 1 destination'), 'https://example.fr/printemps')
    await user.click(screen.getByRole('button', { name: 'Add language rule' }))
    await fill(user, screen.getByLabelText('Language 1'), 'DE')
    await fill(user, screen.getByLabelText('Language 1 destination'), 'https://example.de')
    await user.click(screen.getByRole('button', { name: 'Create link' }))

    await waitFor(() => expect(onSubmit).toHaveBeenCalledTimes(1))
    const [values] = onSubmit.mock.calls[0] as unknown as [LinkFormValues]
    expect(toCreateBody(values)).toEqual({
      url: 'https://example.com/spring',
      custom: 'spring-sale',
      domain: 3,
      type: 'overlay-6',
      campaign: 7,
      channel: 9,
      pixels: [11],
      password: 'open sesame',
      metatitle: 'Spring sale',
      geotarget: [{ location: 'FR', link: 'https://example.fr/printemps' }],
      languagetarget: [{ language: 'de', link: 'https://example.de' }],
    })
  })

  it('previews where iPhone, Android and other visitors go, and says which device rules an app link comes before', async () => {
    const user = setupUser()
    renderForm(vi.fn())
    await fill(user, screen.getByLabelText('Destination URL'), 'https://example.com/spring')
    await fill(user, screen.getByLabelText('UTM source (optional)'), 'poster')
    expect(screen.getByText('Visitors go to')).toBeTruthy()
    await fill(user, screen.getByLabelText('iOS app link (optional)'), 'https://apps.apple.com/app/id1')
    await fill(user, screen.getByLabelText('Android app link (optional)'), 'https://play.google.com/store/apps/details?id=x')
    expect(screen.getByLabelText('iPhone and iPad preview').textContent).toBe('https://apps.apple.com/app/id1?utm_source=poster')
    expect(screen.getByLabelText('Android preview').textContent).toBe('https://play.google.com/store/apps/details?id=x&utm_source=poster')
    expect(screen.getByText('Other visitors go to')).toBeTruthy()
    expect(screen.getByTestId('destination-preview').textContent).toBe('https://example.com/spring?utm_source=poster')

    await user.click(screen.getByRole('button', { name: 'Add device rule' }))
    await user.selectOptions(screen.getByLabelText('Device 1'), 'desktop')
    expect(screen.queryByRole('note')).toBeNull()
    await user.click(screen.getByRole('button', { name: 'Add device rule' }))
    await user.selectOptions(screen.getByLabelText('Device 2'), 'iphone')
    expect(screen.getByRole('note').textContent).toBe('Device rule 2 (iPhone) is not used: those visitors go to the iOS app link above.')
    await user.clear(screen.getByLabelText('iOS app link (optional)'))
    expect(screen.queryByRole('note')).toBeNull()
  })

  it('applies a UTM template in one click, previews the destination visitors get, and sends the parameters', async () => {
    const user = setupUser()
    const onSubmit = vi.fn(async () => {})
    renderForm(onSubmit)
    await fill(user, screen.getByLabelText('Destination URL'), 'https://example.com/spring?utm_source=old#top')
    await user.selectOptions(screen.getByLabelText('UTM template (optional)'), '4')
    expect((screen.getByLabelText('UTM source (optional)') as HTMLInputElement).value).toBe('newsletter')
    expect((screen.getByLabelText('UTM medium (optional)') as HTMLInputElement).value).toBe('email')
    await fill(user, screen.getByLabelText('UTM campaign (optional)'), 'spring sale')
    expect(screen.getByTestId('destination-preview').textContent).toBe('https://example.com/spring?utm_source=newsletter&utm_medium=email&utm_campaign=spring%20sale#top')
    await user.click(screen.getByRole('button', { name: 'Create link' }))

    await waitFor(() => expect(onSubmit).toHaveBeenCalledTimes(1))
    const [values] = onSubmit.mock.calls[0] as unknown as [LinkFormValues]
    expect(toCreateBody(values).utm).toEqual({ source: 'newsletter', medium: 'email', campaign: 'spring sale' })
  })

  it('refuses a UTM value over 200 characters beside its field, and shows the server\'s message for one', async () => {
    const user = setupUser()
    const onSubmit = vi.fn(async () => {
      throw new ApiError(400, 'The field "utm.term" must not contain control characters.', { code: 'validation_failed', field: 'utm.term' })
    })
    renderForm(onSubmit)
    await fill(user, screen.getByLabelText('Destination URL'), 'https://example.com')
    fireEvent.change(screen.getByLabelText('UTM content (optional)'), { target: { value: 'x'.repeat(201) } })
    await user.click(screen.getByRole('button', { name: 'Create link' }))
    expect(onSubmit).not.toHaveBeenCalled()
    expect(describedText(screen.getByLabelText('UTM content (optional)'))).toContain('at most 200')

    fireEvent.change(screen.getByLabelText('UTM content (optional)'), { target: { value: 'hero' } })
    await fill(user, screen.getByLabelText('UTM term (optional)'), 'shoes')
    await user.click(screen.getByRole('button', { name: 'Create link' }))
    await waitFor(() => expect(describedText(screen.getByLabelText('UTM term (optional)'))).toBe('Must not contain control characters.'))
  })

  it('starts a split test with two variants and sends them with their weights', async () => {
    const user = setupUser()
    const onSubmit = vi.fn(async () => {})
    renderForm(onSubmit)
    await fill(user, screen.getByLabelText('Destination URL'), 'https://example.com')
    await user.click(screen.getByRole('button', { name: 'Start a split test' }))
    await fill(user, screen.getByLabelText('Variant 1 URL'), 'https://example.com/a')
    await fill(user, screen.getByLabelText('Variant 2 URL'), 'https://example.com/b')
    await fill(user, screen.getByLabelText('Variant 2 weight'), '3')
    await user.click(screen.getByRole('button', { name: 'Create link' }))
    await waitFor(() => expect(onSubmit).toHaveBeenCalledTimes(1))
    const [values] = onSubmit.mock.calls[0] as unknown as [LinkFormValues]
    expect(toCreateBody(values).variants).toEqual([{ url: 'https://example.com/a', weight: 1 }, { url: 'https://example.com/b', weight: 3 }])
  })

  it("shows the server's message beside the field it names, down to one targeting rule", async () => {
    const user = setupUser()
    renderForm(async () => {
      throw new ApiError(400, 'The field "geotarget.0.link" must be an http or https URL.', { code: 'validation_failed', field: 'geotarget.0.link' })
    })
    await fill(user, screen.getByLabelText('Destination URL'), 'https://example.com')
    await user.click(screen.getByRole('button', { name: 'Add country rule' }))
    await user.selectOptions(screen.getByLabelText('Country 1'), 'DE')
    await fill(user, screen.getByLabelText('Country 1 destination'), 'https://example.de')
    await user.click(screen.getByRole('button', { name: 'Create link' }))

    await waitFor(() => expect(describedText(screen.getByLabelText('Country 1 destination'))).toBe('Must be an http or https URL.'))
    expect(screen.getByRole('alert').textContent).toContain('The field "geotarget.0.link" must be an http or https URL.')
  })

  it('puts a taken alias beside the alias field', async () => {
    const user = setupUser()
    renderForm(async () => {
      throw new ApiError(400, 'That alias is taken. Please choose another one.', { code: 'duplicate', field: 'custom' })
    })
    await fill(user, screen.getByLabelText('Destination URL'), 'https://example.com')
    await fill(user, screen.getByLabelText('Alias (optional)'), 'taken')
    await user.click(screen.getByRole('button', { name: 'Create link' }))
    await waitFor(() => expect(describedText(screen.getByLabelText('Alias (optional)'))).toContain('alias is taken'))
    // The marked field takes the focus, wherever it is on the page.
    await waitFor(() => expect(document.activeElement).toBe(screen.getByLabelText('Alias (optional)')))
  })

  it('marks no field the envelope does not name, even when the message speaks of one', async () => {
    const user = setupUser()
    renderForm(async () => {
      throw new ApiError(404, 'Domain not found. Please try again.', { code: 'not_found' })
    })
    await fill(user, screen.getByLabelText('Destination URL'), 'https://example.com')
    await user.selectOptions(screen.getByLabelText('Domain'), '3')
    await user.click(screen.getByRole('button', { name: 'Create link' }))
    await waitFor(() => expect(screen.getByRole('alert').textContent).toBe('Domain not found. Please try again.'))
    expect(screen.getByLabelText('Domain').getAttribute('aria-invalid')).toBeNull()
    expect(document.querySelector('[aria-invalid="true"]')).toBeNull()
  })

  it('sends the person to the Domains and Pixels pages when there are none yet', () => {
    render(
      <MemoryRouter>
        <LinkForm mode="create" initial={emptyLinkForm} options={{ ...options, domains: [], pixels: [] }} submitLabel="Create link" onSubmit={vi.fn()} />
      </MemoryRouter>,
    )
    expect(screen.getByRole('link', { name: 'add a branded domain' }).getAttribute('href')).toBe('/domains/new')
    expect(screen.getByRole('link', { name: 'Add a pixel' }).getAttribute('href')).toBe('/pixels')
    expect(document.body.textContent).not.toContain('through the API')
  })
})
