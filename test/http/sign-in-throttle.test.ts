// Wrong passwords are throttled per account (however it is named) and per client address, in the
// store the deployment shares (PostgreSQL on the postgres run, Redis when given, else memory).
import { randomBytes } from 'node:crypto'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { AuthenticationError, ConflictError, ValidationError } from '../../src/core/errors.js'
import { createSignInThrottle, WRONG_CODES_PER_WAITING_SESSION } from '../../src/http/sign-in-throttle.js'
import { chooseCounterStore, createThrottleFactory } from '../../src/http/throttle.js'
import { connectRedis } from '../../src/redis/connection.js'
import { signedInClient, signIn } from '../helpers/dashboard-client.js'
import { createAccount, createTestApp, type TestContext } from '../helpers/test-app.js'

const PASSWORD = 'the right password'
const redisUrl = process.env.TEST_REDIS_URL

function expectThrottled(response: { statusCode: number; headers: Record<string, unknown>; data: any }) {
  expect(response.statusCode).toBe(429)
  expect(response.data).toEqual({ error: 1, code: 'rate_limited', message: 'Too many failed sign-in attempts. Please wait before trying again.' })
  const retryAfter = Number(response.headers['retry-after'])
  expect(Number.isInteger(retryAfter)).toBe(true)
  expect(retryAfter).toBeGreaterThanOrEqual(1)
  expect(retryAfter).toBeLessThanOrEqual(15 * 60)
}

describe('sign-in throttle with the default limits and the deployment\'s store', () => {
  // A fresh app per test: every request comes from one address, whose own count must start at zero.
  let context: TestContext
  beforeEach(async () => {
    context = await createTestApp()
  })
  afterEach(() => context.close())

  it('refuses an account after 10 wrong passwords, even the right one; other accounts are unaffected', async () => {
    const account = await createAccount(context, { password: PASSWORD })
    for (let attempt = 1; attempt <= 10; attempt += 1) {
      // Alternating username and e-mail: one account, one count.
      const login = attempt % 2 === 0 ? account.username : account.email
      expect((await signIn(context.app, login, `wrong ${attempt}`)).statusCode, `attempt ${attempt}`).toBe(401)
    }
    expectThrottled(await signIn(context.app, account.username, PASSWORD))
    expectThrottled(await signIn(context.app, account.email, PASSWORD, {}))
    const other = await createAccount(context, { password: PASSWORD })
    expect((await signIn(context.app, other.username, PASSWORD)).statusCode).toBe(200)
  })

  it('throttles an unknown login exactly like a known one (the throttle tells nothing)', async () => {
    const login = `nobody-${randomBytes(4).toString('hex')}`
    for (let attempt = 1; attempt <= 10; attempt += 1) expect((await signIn(context.app, login, 'guess')).statusCode).toBe(401)
    expectThrottled(await signIn(context.app, login, 'guess'))
  })

  it('forgets an account\'s wrong passwords once the right one is given', async () => {
    const account = await createAccount(context, { password: PASSWORD })
    for (let attempt = 1; attempt <= 9; attempt += 1) await signIn(context.app, account.username, 'wrong')
    expect((await signIn(context.app, account.username, PASSWORD)).statusCode).toBe(200)
    for (let attempt = 1; attempt <= 9; attempt += 1) expect((await signIn(context.app, account.username, 'wrong')).statusCode).toBe(401)
    expect((await signIn(context.app, account.username, PASSWORD)).statusCode).toBe(200)
  })

  it('throttles wrong current passwords of a password change', async () => {
    const account = await createAccount(context, { password: PASSWORD })
    const { client } = await signedInClient(context.app, account.username, PASSWORD)
    for (let attempt = 1; attempt <= 10; attempt += 1) {
      expect((await client('PUT', '/api/account/password', { current: `guess ${attempt}`, password: 'a new password' })).statusCode).toBe(400)
    }
    expectThrottled(await client('PUT', '/api/account/password', { current: PASSWORD, password: 'a new password' }))
  })
})

describe('sign-in throttle per address', () => {
  let context: TestContext
  afterEach(() => context?.close())

  it('refuses an address after its limit whatever accounts it tries; other addresses are unaffected', async () => {
    // The deployment's store (the test database's PostgreSQL on that run) with a small address limit.
    context = await createTestApp({
      signInThrottle: (database) => createSignInThrottle({ throttles: createThrottleFactory({ store: chooseCounterStore({ database }) }), limits: { perSubject: 100, perAddress: 5 } }),
    })
    const accounts = await Promise.all([1, 2, 3].map(() => createAccount(context, { password: PASSWORD })))
    const from = (address: string, login: string, password: string) =>
      context.app.inject({
        method: 'POST',
        url: '/api/auth/login',
        remoteAddress: address,
        headers: { 'content-type': 'application/json', origin: 'https://lw.test', 'x-linkwell-csrf': '1' },
        payload: JSON.stringify({ login, password }),
      })
    // Right passwords give their attempt back: they never use the address up.
    for (let round = 0; round < 3; round += 1) expect((await from('203.0.113.9', accounts[round]!.username, PASSWORD)).statusCode).toBe(200)
    for (let attempt = 0; attempt < 5; attempt += 1) {
      expect((await from('203.0.113.9', accounts[attempt % 3]!.username, 'wrong')).statusCode).toBe(401)
    }
    const refused = await from('203.0.113.9', accounts[2]!.username, PASSWORD)
    expect(refused.statusCode).toBe(429)
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0)
    expect((await from('198.51.100.7', accounts[2]!.username, PASSWORD)).statusCode).toBe(200)
  })
})

describe('sign-in throttle rules', () => {
  it('gives back an attempt that failed for another reason than the password', async () => {
    const throttle = createSignInThrottle({ limits: { perSubject: 2, perAddress: 2 } })
    for (let attempt = 0; attempt < 5; attempt += 1) {
      await expect(throttle.guard('account:1', '192.0.2.1', async () => {
        throw ValidationError.field('password', 'must be at least 8 characters')
      })).rejects.toThrow(ValidationError)
    }
    await expect(throttle.guard('account:1', '192.0.2.1', async () => 'done')).resolves.toBe('done')
  })

  it('lets parallel guesses through only up to the limit', async () => {
    const throttle = createSignInThrottle({ limits: { perSubject: 3, perAddress: 100 } })
    const outcomes = await Promise.allSettled(
      Array.from({ length: 10 }, () => throttle.guard('account:7', '192.0.2.2', async () => {
        await new Promise((resolve) => setTimeout(resolve, 20))
        throw AuthenticationError.wrongCredentials()
      })),
    )
    const codes = outcomes.map((outcome) => (outcome as PromiseRejectedResult).reason.code)
    expect(codes.filter((code) => code === 'invalid_credentials')).toHaveLength(3)
    expect(codes.filter((code) => code === 'rate_limited')).toHaveLength(7)
  })
})

describe('second-factor code throttle rules (ADR 027)', () => {
  const wrongCode = async () => {
    throw ConflictError.wrongCode()
  }

  it('keeps counting wrong codes when the right password is given between them', async () => {
    const throttle = createSignInThrottle({ limits: { perSubject: 3, perAddress: 100 } })
    for (let round = 0; round < 3; round += 1) {
      await expect(throttle.guard('person:1', '192.0.2.3', async () => 'password right')).resolves.toBe('password right')
      await expect(throttle.guardCode('person:1', '192.0.2.3', wrongCode)).rejects.toMatchObject({ code: 'wrong_code' })
    }
    await expect(throttle.guard('person:1', '192.0.2.3', async () => 'password right')).resolves.toBe('password right')
    await expect(throttle.guardCode('person:1', '192.0.2.3', async () => 'code right')).rejects.toMatchObject({ code: 'rate_limited' })
    // Wrong passwords are a count of their own: the person's codes left them untouched.
    await expect(throttle.guard('person:1', '192.0.2.3', async () => 'password right')).resolves.toBe('password right')
  })

  it('ends a waiting session at its fifth wrong code; a right code clears the person\'s count', async () => {
    const throttle = createSignInThrottle({ limits: { perSubject: 10, perAddress: 100 } })
    const ended: string[] = []
    const waiting = { id: 'session-a', end: async () => { ended.push('session-a') } }
    for (let attempt = 1; attempt < WRONG_CODES_PER_WAITING_SESSION; attempt += 1) {
      await expect(throttle.guardCode('person:2', '192.0.2.4', wrongCode, waiting)).rejects.toMatchObject({ code: 'wrong_code' })
    }
    expect(ended).toEqual([])
    await expect(throttle.guardCode('person:2', '192.0.2.4', wrongCode, waiting)).rejects.toMatchObject({ code: 'invalid_session', message: 'Too many wrong codes. Please sign in again.' })
    expect(ended).toEqual(['session-a'])
    await expect(throttle.guardCode('person:2', '192.0.2.4', async () => 'code right')).resolves.toBe('code right')
    // Cleared: ten more wrong codes (in sessions that end) before a 429.
    for (let attempt = 0; attempt < 10; attempt += 1) {
      await expect(throttle.guardCode('person:2', '192.0.2.4', wrongCode)).rejects.toMatchObject({ code: 'wrong_code' })
    }
    await expect(throttle.guardCode('person:2', '192.0.2.4', wrongCode)).rejects.toMatchObject({ code: 'rate_limited' })
  })
})

describe.skipIf(!redisUrl)('sign-in throttle shared through Redis', () => {
  it('counts wrong passwords on one instance against the others', async () => {
    const prefix = `lwtest:${randomBytes(4).toString('hex')}:`
    const first = connectRedis(redisUrl!, prefix)
    const second = connectRedis(redisUrl!, prefix)
    try {
      // Until connected the limiter would count in memory (its fallback), which is not what is tested.
      await Promise.all([first, second].map((redis) => new Promise((resolve) => redis.once('ready', resolve))))
      const limits = { perSubject: 3, perAddress: 100 }
      const one = createSignInThrottle({ throttles: createThrottleFactory({ store: chooseCounterStore({ redis: first }) }), limits })
      const two = createSignInThrottle({ throttles: createThrottleFactory({ store: chooseCounterStore({ redis: second }) }), limits })
      const wrong = async () => {
        throw AuthenticationError.wrongCredentials()
      }
      await expect(one.guard('account:9', '192.0.2.3', wrong)).rejects.toMatchObject({ code: 'invalid_credentials' })
      await expect(two.guard('account:9', '192.0.2.3', wrong)).rejects.toMatchObject({ code: 'invalid_credentials' })
      await expect(one.guard('account:9', '192.0.2.3', wrong)).rejects.toMatchObject({ code: 'invalid_credentials' })
      await expect(two.guard('account:9', '192.0.2.3', async () => 'signed in')).rejects.toMatchObject({ code: 'rate_limited' })
      expect(await first.keys('*signin*')).not.toHaveLength(0)
    } finally {
      first.disconnect()
      second.disconnect()
    }
  })
})
