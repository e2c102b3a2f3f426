// The account: e-mail, password, the statistics' time zone, API keys and signed-in sessions.
import { PageHeader } from '../components/PageHeader'
import { ApiKeysSection } from './ApiKeysSection'
import { PasswordSection } from './PasswordSection'
import { PlanSection } from './PlanSection'
import { ProfileSection } from './ProfileSection'
import { SessionsSection } from './SessionsSection'
import { TimeZoneSection } from './TimeZoneSection'

export function AccountPage() {
  return (
    <>
      <PageHeader title="Account" description="Your sign-in details, the statistics' time zone, API keys and sessions." />
      <div className="account-grid">
        <ProfileSection />
        <PasswordSection />
        <TimeZoneSection />
        <PlanSection />
        <ApiKeysSection />
        <SessionsSection />
      </div>
    </>
  )
}
