// The workspace's analytics: every link's clicks together, under the same view as an item's
// statistics page (range, granularity, comparison, filter chips from any row, live counter, CSV),
// with the view's most clicked links, each opening its own statistics under the same view.
import { PageHeader } from '../components/PageHeader'
import { ItemStatistics } from './ItemStatistics'

export function WorkspaceAnalyticsPage() {
  return (
    <>
      <PageHeader title="Analytics" description="All your links' clicks. Click any row to show only those clicks; the address keeps the view, to share it." />
      <ItemStatistics item="workspace" nouns={{ plural: 'Clicks', emptyHint: 'Share a short link, or choose a longer range. New clicks appear here within seconds.' }} />
    </>
  )
}
