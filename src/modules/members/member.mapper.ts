// A workspace's member to the record its readers see: GET /api/members and `linkwell member list`.
import type { PersonRow } from '../../db/schema.js'
import type { Role } from '../access/roles.js'

/** A member as GET /api/members lists them; `you` for the person `readerPersonId` (none for the command line: it is no member). */
export function toMemberRecord({ person, role, joined }: { person: PersonRow; role: Role | null; joined: string }, readerPersonId: number | null) {
  return {
    id: person.id,
    username: person.username,
    email: person.email,
    role: role ?? 'viewer',
    twofactor: person.totp_secret !== null,
    lastsignin: person.last_sign_in_at,
    joined,
    you: person.id === readerPersonId,
  }
}
