// One campaign: its rotator and list-page addresses, its links with their clicks (add, remove),
// and the statistics of the rotator's visits.
import { useState } from 'react'
import { Link, useLocation, useNavigate, useParams } from 'react-router'
import { messageOf } from '../api/client'
import { ItemStatistics } from '../analytics/ItemStatistics'
import { ConfirmDialog } from '../components/ConfirmDialog'
import { CopyButton } from '../components/CopyButton'
import { displayUrl, formatCount } from '../components/format'
import { PageHeader } from '../components/PageHeader'
import { Pagination } from '../components/Pagination'
import { EmptyState, ErrorMessage, Loading } from '../components/States'
import { AddLinksPicker } from './AddLinksPicker'
import { DeleteCampaignDialog } from './DeleteCampaignDialog'
import { useCampaign, useCampaignLinks, useRemoveFromCampaign, type Campaign } from './campaign-queries'
import './campaigns.css'
import { GuardedLink, RoleNote, useMay } from '../members/RoleGuard'

const VISITS = { plural: 'Visits', emptyHint: 'Share the rotator address, or choose a longer range. New visits appear here within seconds.' }

export function CampaignDetailPage() {
  const id = Number(useParams().id)
  const navigate = useNavigate()
  const campaign = useCampaign(id)
  const notice = (useLocation().state as { notice?: string } | null)?.notice
  const [deleting, setDeleting] = useState(false)
  const mayEdit = useMay('editor')

  if (campaign.isError) return <><PageHeader title="Campaign" /><ErrorMessage error={campaign.error} onRetry={() => campaign.refetch()} /></>
  if (!campaign.data) return <><PageHeader title="Campaign" /><Loading label="Loading the campaign…" /></>
  const data = campaign.data
  return (
    <>
      <PageHeader
        title={data.name}
        description={<Link to="/campaigns">← All campaigns</Link>}
        actions={<>
          <GuardedLink to={`/campaigns/${id}/edit`} className="button" allowed={mayEdit} reasonId="campaign-role-note">Edit</GuardedLink>
          <button type="button" className="button ghost danger-text" onClick={() => setDeleting(true)} disabled={!mayEdit} aria-describedby={mayEdit ? undefined : 'campaign-role-note'}>Delete</button>
        </>}
      />
      <RoleNote id="campaign-role-note" needed="editor" allowed={mayEdit} />
      {notice && <p className="notice" role="status">{notice}</p>}
      <CampaignAddresses campaign={data} mayEdit={mayEdit} />
      <div className="campaign-grid">
        <CampaignLinks campaignId={id} mayEdit={mayEdit} />
        {mayEdit && <AddLinksPicker campaignId={id} />}
      </div>
      <h2 className="section-title">Rotator visits</h2>
      <ItemStatistics item="campaign" id={id} nouns={VISITS} />
      {deleting && <DeleteCampaignDialog campaign={data} onClose={() => setDeleting(false)} onDeleted={() => navigate('/campaigns', { state: { notice: `Campaign “${data.name}” deleted.` } })} />}
    </>
  )
}

function CampaignAddresses({ campaign, mayEdit }: { campaign: Campaign; mayEdit: boolean }) {
  return (
    <section className="card campaign-addresses" aria-label="Addresses">
      <div className="address">
        <h2>Rotator</h2>
        {campaign.rotator ? (
          <>
            <p className="address-url"><a href={campaign.rotator} target="_blank" rel="noreferrer">{campaign.rotator}</a></p>
            <p className="muted small">Sends each visitor to the campaign's next link.</p>
            <CopyButton text={campaign.rotator} label="Copy rotator URL" />
          </>
        ) : (
          mayEdit
            ? <p className="muted small">No rotator yet. <Link to={`/campaigns/${campaign.id}/edit`}>Give the campaign a slug</Link> to get one address for all its links.</p>
            : <p className="muted small">No rotator yet: it appears once an editor gives the campaign a slug.</p>
        )}
      </div>
      <div className="address">
        <h2>List page</h2>
        <p className="address-url">{campaign.public ? <a href={campaign.list} target="_blank" rel="noreferrer">{campaign.list}</a> : <span>{campaign.list}</span>}</p>
        <p className="muted small">{campaign.public ? 'Public: anyone with the address sees the campaign’s links.' : 'Private: the address answers “not found” until you make the list public.'}</p>
        <div className="row wrap">
          <CopyButton text={campaign.list} label="Copy list URL" />
          {campaign.public && <a href={campaign.list} target="_blank" rel="noreferrer" className="button small ghost">View public page</a>}
        </div>
      </div>
      <div className="address kpi">
        <span className="kpi-label">Views</span>
        <span className="kpi-value">{formatCount(campaign.views)}</span>
        <span className="muted small">Visits of the rotator (bots left out)</span>
      </div>
    </section>
  )
}

function CampaignLinks({ campaignId, mayEdit }: { campaignId: number; mayEdit: boolean }) {
  const [page, setPage] = useState(1)
  const links = useCampaignLinks(campaignId, page)
  const [removing, setRemoving] = useState<{ id: number; shorturl: string }>()
  return (
    <section className="card stack" aria-labelledby="campaign-links-title">
      <div className="row between wrap">
        <h2 id="campaign-links-title">Links in this campaign</h2>
        {links.data && <span className="muted small">{formatCount(links.data.result)} {links.data.result === 1 ? 'link' : 'links'}</span>}
      </div>
      {links.isPending ? <Loading label="Loading the campaign's links…" /> : links.isError ? <ErrorMessage error={links.error} onRetry={() => links.refetch()} /> : links.data.urls.length === 0 ? (
        <EmptyState title="No links in this campaign">
          <p className="muted">{mayEdit ? 'Find links on the right and add them: the rotator sends visitors to them in turn.' : 'Editors add links here; the rotator then sends visitors to them in turn.'}</p>
        </EmptyState>
      ) : (
        <>
          <ul className="picker-list" aria-label="Links in this campaign">
            {links.data.urls.map((link) => (
              <li key={link.id}>
                <span className="picker-text">
                  <a href={link.shorturl} target="_blank" rel="noreferrer" className="short-url">{displayUrl(link.shorturl)}</a>
                  <span className="destination" title={link.longurl}>{displayUrl(link.longurl)}</span>
                </span>
                <Link to={`/links/${link.id}/analytics`} className="clicks" aria-label={`${formatCount(link.clicks)} clicks: analytics of ${displayUrl(link.shorturl)}`}>
                  <strong>{formatCount(link.clicks)}</strong>
                  <span className="muted small">clicks</span>
                </Link>
                <button type="button" className="button small ghost danger-text" onClick={() => setRemoving(link)} disabled={!mayEdit} aria-describedby={mayEdit ? undefined : 'campaign-role-note'}>Remove<span className="visually-hidden"> {displayUrl(link.shorturl)}</span></button>
              </li>
            ))}
          </ul>
          <Pagination page={page} maxPage={links.data.maxpage} total={links.data.result} onPage={setPage} />
        </>
      )}
      {removing && <RemoveLinkDialog campaignId={campaignId} link={removing} onClose={() => setRemoving(undefined)} />}
    </section>
  )
}

function RemoveLinkDialog({ campaignId, link, onClose }: { campaignId: number; link: { id: number; shorturl: string }; onClose(): void }) {
  const remove = useRemoveFromCampaign()
  return (
    <ConfirmDialog title="Remove this link from the campaign?" confirmLabel="Remove link" busy={remove.isPending} error={remove.isError ? messageOf(remove.error) : undefined} onConfirm={() => remove.mutate({ campaign: campaignId, link: link.id }, { onSuccess: onClose })} onCancel={onClose}>
      <p><strong>{displayUrl(link.shorturl)}</strong> leaves the campaign: the rotator no longer sends visitors to it. The link itself keeps working.</p>
    </ConfirmDialog>
  )
}
