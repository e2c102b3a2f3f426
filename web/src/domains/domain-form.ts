// The domain form's values and the client checks that mirror the server's (domain-origin.ts and
// the http(s) URL rule of the redirects), so most mistakes are caught before a request.

export interface DomainFormValues {
  domain: string
  redirectroot: string
  redirect404: string
}

export type DomainFormErrors = Partial<Record<keyof DomainFormValues, string>>
export const DOMAIN_FIELDS: ReadonlyArray<keyof DomainFormValues> = ['domain', 'redirectroot', 'redirect404']

export const emptyDomainForm: DomainFormValues = { domain: '', redirectroot: '', redirect404: '' }

const LABEL = /^(?!-)[a-z0-9-]{1,63}(?<!-)$/

/** Why `text` is not a branded domain the server would take, or undefined when it is. */
export function domainProblem(text: string): string | undefined {
  const value = text.trim()
  if (!value) return 'Enter the domain, like https://go.example.com.'
  if (!/^https?:\/\//i.test(value)) return 'Must start with http:// or https://.'
  let url: URL
  try {
    url = new URL(value)
  } catch {
    return 'Must be an address like https://go.example.com.'
  }
  if (url.username || url.password) return 'Must not contain a user name or password.'
  if (url.port) return 'Must not contain a port.'
  if (url.pathname !== '/' || url.search || url.hash || /[?#]/.test(value)) return 'Must be a domain only, without a path, query or fragment.'
  const hostname = url.hostname.replace(/\.$/, '')
  if (hostname.startsWith('[') || /^\d+(\.\d+){3}$/.test(hostname)) return 'Must be a domain name, not an IP address.'
  const labels = hostname.split('.')
  if (hostname.length > 253 || labels.length < 2 || !labels.every((label) => LABEL.test(label)) || /^\d+$/.test(labels[labels.length - 1] ?? '')) {
    return 'Must be a fully qualified domain name like go.example.com.'
  }
  return undefined
}

/** Why a redirect target is refused; empty means "no redirect". */
export function redirectProblem(text: string): string | undefined {
  const value = text.trim()
  if (!value) return undefined
  try {
    const url = new URL(value)
    if (url.protocol === 'http:' || url.protocol === 'https:') return undefined
  } catch {
    // falls through
  }
  return 'Must be an http or https URL, or empty for none.'
}

export function validateDomainForm(values: DomainFormValues, mode: 'create' | 'edit'): DomainFormErrors {
  const errors: DomainFormErrors = {}
  const domain = mode === 'create' ? domainProblem(values.domain) : undefined
  if (domain) errors.domain = domain
  const root = redirectProblem(values.redirectroot)
  if (root) errors.redirectroot = root
  const notFound = redirectProblem(values.redirect404)
  if (notFound) errors.redirect404 = notFound
  return errors
}

/** The host of an origin, for text: `https://go.example.com` → `go.example.com`. */
export function hostOf(origin: string): string {
  try {
    return new URL(origin).hostname
  } catch {
    return origin
  }
}
