// PLACEHOLDER (issue 11): replaced by the page itself.
import { PageHeader } from '../components/PageHeader'
import { UsageNote } from '../usage/plan-usage'

export function CampaignsPage() {
  return (
    <>
      <PageHeader title="Campaigns" />
      <UsageNote resource="campaigns" />
    </>
  )
}
