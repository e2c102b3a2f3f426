// PLACEHOLDER (issue 11): replaced by the page itself.
import { PageHeader } from '../components/PageHeader'

export function UsersPage() {
  return (
    <>
      <PageHeader title="Users" />
    </>
  )
}
