// The account: e-mail, password, API keys and signed-in sessions.
import { PageHeader } from '../components/PageHeader'
import { ApiKeysSection } from './ApiKeysSection'
import { PasswordSection } from './PasswordSection'
import { PlanSection } from './PlanSection'
import { ProfileSection } from './ProfileSection'
import { SessionsSection } from './SessionsSection'

export function AccountPage() {
  return (
    <>
      <PageHeader title="Account" description="Your sign-in details, API keys and sessions." />
      <div className="account-grid">
        <ProfileSection />
        <PasswordSection />
        <PlanSection />
        <ApiKeysSection />
        <SessionsSection />
      </div>
    </>
  )
}
