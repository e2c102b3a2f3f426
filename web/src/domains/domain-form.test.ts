import { describe, expect, it } from 'vitest'
import { domainProblem, hostOf, redirectProblem, validateDomainForm } from './domain-form'

describe('domain form checks', () => {
  it.each([
    ['https://go.example.com', undefined],
    ['HTTP://Go.Example.com/', undefined],
    ['', 'Enter the domain, like https://go.example.com.'],
    ['go.example.com', 'Must start with http:// or https://.'],
    ['https://go.example.com:8080', 'Must not contain a port.'],
    ['https://go.example.com/path', 'Must be a domain only, without a path, query or fragment.'],
    ['https://go.example.com/?', 'Must be a domain only, without a path, query or fragment.'],
    ['https://203.0.113.7', 'Must be a domain name, not an IP address.'],
    ['https://localhost', 'Must be a fully qualified domain name like go.example.com.'],
    ['https://user:pw@go.example.com', 'Must not contain a user name or password.'],
  ])('domain %j → %j', (text, problem) => {
    expect(domainProblem(text)).toBe(problem)
  })

  it('takes empty redirects and http(s) URLs, refuses other schemes', () => {
    expect(redirectProblem('')).toBeUndefined()
    expect(redirectProblem('https://www.example.com/')).toBeUndefined()
    expect(redirectProblem('javascript:alert(1)')).toBe('Must be an http or https URL, or empty for none.')
    expect(redirectProblem('www.example.com')).toBe('Must be an http or https URL, or empty for none.')
  })

  it('does not check the domain on edit (it cannot change)', () => {
    expect(validateDomainForm({ domain: '', redirectroot: 'ftp://x', redirect404: '' }, 'edit')).toEqual({ redirectroot: 'Must be an http or https URL, or empty for none.' })
    expect(validateDomainForm({ domain: 'nope', redirectroot: '', redirect404: '' }, 'create')).toEqual({ domain: 'Must start with http:// or https://.' })
  })

  it('shows an origin as its host', () => {
    expect(hostOf('https://go.example.com')).toBe('go.example.com')
  })
})
