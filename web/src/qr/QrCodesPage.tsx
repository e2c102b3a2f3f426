// PLACEHOLDER (issue 11): replaced by the page itself.
import { PageHeader } from '../components/PageHeader'
import { UsageNote } from '../usage/plan-usage'

export function QrCodesPage() {
  return (
    <>
      <PageHeader title="QR codes" />
      <UsageNote resource="qrcodes" />
    </>
  )
}
