// The throttles of what visitors send: guesses at a link's password and contact-form messages,
// each counted per target (the link) and per client address (http/attempt-throttle.ts).
import { createAttemptThrottle, type AttemptThrottle } from '../http/attempt-throttle.js'
import type { ThrottleFactory } from '../http/throttle.js'

export interface VisitorThrottles {
  linkPassword: AttemptThrottle
  contact: AttemptThrottle
}

const MINUTE = 60
const HOUR = 60 * MINUTE

/**
 * A person mistyping a password tries a few times; a guessing script tries thousands. Five
 * attempts per address in a quarter hour, then 1, 2, 4 … minutes up to an hour between rounds,
 * holds a script to a few dozen guesses a day. A right password is given back, so the per-link
 * count is of wrong ones: thirty from any addresses in a quarter hour is an attack from many
 * machines, and the link's form pauses for everyone (its redirect, once unlocked, never does).
 */
const LINK_PASSWORD = {
  perClient: { attempts: 5, windowSeconds: 15 * MINUTE, firstBlockSeconds: MINUTE, maxBlockSeconds: HOUR },
  perTarget: { attempts: 30, windowSeconds: 15 * MINUTE, firstBlockSeconds: MINUTE, maxBlockSeconds: HOUR },
}

/** A visitor writes once or twice; a flood of messages is spam for the link's owner to wade through. */
const CONTACT = {
  perClient: { attempts: 3, windowSeconds: 10 * MINUTE, firstBlockSeconds: 5 * MINUTE, maxBlockSeconds: 24 * HOUR },
  perTarget: { attempts: 50, windowSeconds: HOUR, firstBlockSeconds: 5 * MINUTE, maxBlockSeconds: 6 * HOUR },
}

/** Counters where `throttles` keeps them (the deployment's shared store: app.ts), else in memory. */
export function createVisitorThrottles(throttles?: ThrottleFactory): VisitorThrottles {
  return {
    linkPassword: createAttemptThrottle({ name: 'link-password', throttles, ...LINK_PASSWORD }),
    contact: createAttemptThrottle({ name: 'contact', throttles, ...CONTACT }),
  }
}
