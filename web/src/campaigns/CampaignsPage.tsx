// The account's campaigns: each with its rotator and list-page addresses to copy, whether its list
// is public, and its views; open one to manage its links and see its statistics.
import { Link } from 'react-router'
import { CopyButton } from '../components/CopyButton'
import { displayUrl, formatCount } from '../components/format'
import { ListPageBody, useListPage } from '../components/list-page'
import { PageHeader } from '../components/PageHeader'
import { EmptyState } from '../components/States'
import { CreateAction, UsageNote } from '../usage/plan-usage'
import { DeleteCampaignDialog } from './DeleteCampaignDialog'
import { useCampaignPage, type Campaign } from './campaign-queries'
import './campaigns.css'

export function CampaignsPage() {
  const { page, setPage, notice, deleting, setDeleting } = useListPage<Campaign>()
  const campaigns = useCampaignPage(page)

  return (
    <>
      <PageHeader
        title="Campaigns"
        description={<>Group links, send visitors to them in turn through one rotator address, and share a list page. <UsageNote resource="campaigns" /></>}
        actions={<CreateAction resource="campaigns" to="/campaigns/new">+ New campaign</CreateAction>}
      />
      {notice && <p className="notice" role="status">{notice}</p>}
      <ListPageBody
        query={campaigns}
        entries={(answer) => answer.campaigns}
        loadingLabel="Loading campaigns…"
        state={{ page, setPage }}
        empty={(
          <EmptyState title="No campaigns yet">
            <p className="muted">A campaign groups links of one promotion: give it a rotator slug and one address sends visitors to each of its links in turn.</p>
            <CreateAction resource="campaigns" to="/campaigns/new">+ New campaign</CreateAction>
          </EmptyState>
        )}
      >
        {(entries) => (
          <ul className="org-list" aria-label="Campaigns">
            {entries.map((campaign) => (
              <li key={campaign.id} className="org-row">
                <div className="org-main">
                  <Link to={`/campaigns/${campaign.id}`} className="org-title">{campaign.name}</Link>
                  <span className="badges">
                    <span className={campaign.public ? 'badge campaign' : 'badge'}>{campaign.public ? 'Public list' : 'Private'}</span>
                    {!campaign.rotator && <span className="badge">No rotator</span>}
                  </span>
                  <dl className="org-urls">
                    {campaign.rotator && (
                      <div>
                        <dt>Rotator</dt>
                        <dd><a href={campaign.rotator} target="_blank" rel="noreferrer">{displayUrl(campaign.rotator)}</a> <CopyButton text={campaign.rotator} label="Copy" what={`rotator of ${campaign.name}`} /></dd>
                      </div>
                    )}
                    <div>
                      <dt>List page</dt>
                      <dd><span className="org-url">{displayUrl(campaign.list)}</span> <CopyButton text={campaign.list} label="Copy" what={`list page of ${campaign.name}`} /></dd>
                    </div>
                  </dl>
                </div>
                <div className="org-count" aria-label={`${formatCount(campaign.views)} rotator views`}>
                  <strong>{formatCount(campaign.views)}</strong>
                  <span className="muted small">{campaign.views === 1 ? 'view' : 'views'}</span>
                </div>
                <div className="org-actions">
                  <Link to={`/campaigns/${campaign.id}`} className="button small">Open<span className="visually-hidden"> {campaign.name}</span></Link>
                  <Link to={`/campaigns/${campaign.id}/edit`} className="button small ghost">Edit<span className="visually-hidden"> {campaign.name}</span></Link>
                  <button type="button" className="button small ghost danger-text" onClick={() => setDeleting(campaign)}>Delete<span className="visually-hidden"> {campaign.name}</span></button>
                </div>
              </li>
            ))}
          </ul>
        )}
      </ListPageBody>
      {deleting && <DeleteCampaignDialog campaign={deleting} onClose={() => setDeleting(undefined)} />}
    </>
  )
}
