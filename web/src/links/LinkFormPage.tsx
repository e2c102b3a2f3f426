// Create a link, or change one: the link builder over the account's domains, campaigns,
// channels, pixels, splash pages and overlays.
import { useAccountSettings } from '../account/account-queries'
import { useState } from 'react'
import { Link, useNavigate, useParams } from 'react-router'
import { useAllCampaigns } from '../campaigns/campaign-queries'
import { useAllChannels } from '../channels/channel-queries'
import { CopyButton } from '../components/CopyButton'
import { PageHeader } from '../components/PageHeader'
import { ErrorMessage, Loading } from '../components/States'
import { useAllDomains } from '../domains/domain-queries'
import { useAllOverlays } from '../overlays/overlay-queries'
import { useAllPixels } from '../pixels/pixel-queries'
import { useAllSplashPages } from '../splash/splash-queries'
import { LinkForm, type LinkFormOptions } from './LinkForm'
import { emptyLinkForm, toCreateBody, toUpdateBody, valuesFromDetails } from './link-form'
import { useChooseWinner, useCreateLink, useLink, useSaveUtmTemplate, useSetCard, useUpdateLink, useUtmTemplates } from './link-queries'
import { useAllTags } from '../tags/tag-queries'
import type { UtmValues } from './utm'

/** Every list the form offers, or the first failure; pending until all have answered. */
function useLinkFormOptions() {
  const queries = [useAllDomains(), useAllCampaigns(), useAllChannels(), useAllPixels(), useAllSplashPages(), useAllOverlays(), useUtmTemplates()] as const
  const [domains, campaigns, channels, pixels, splash, overlays, utmTemplates] = queries
  const failed = queries.find((query) => query.isError)
  const options: LinkFormOptions | undefined =
    domains.data && campaigns.data && channels.data && pixels.data && splash.data && overlays.data && utmTemplates.data
      ? { domains: domains.data, campaigns: campaigns.data, channels: channels.data, pixels: pixels.data, splashPages: splash.data, overlays: overlays.data, utmTemplates: utmTemplates.data }
      : undefined
  // Suggestions only: the form works without them (and a new link tracks conversions only when told, until the default is known).
  const tags = useAllTags().data
  const trackConversionsByDefault = useAccountSettings().data?.trackconversions
  return { options: options && { ...options, tags, trackConversionsByDefault }, error: failed?.error, retry: () => queries.forEach((query) => query.isError && query.refetch()) }
}

/** Saves UTM parameters as a template, then lists it in the builder. */
function useUtmTemplateSaver(): (name: string, utm: Partial<UtmValues>) => Promise<unknown> {
  const save = useSaveUtmTemplate()
  return (name, utm) => save.mutateAsync({ name, utm })
}

export function CreateLinkPage() {
  const create = useCreateLink()
  const saveUtmTemplate = useUtmTemplateSaver()
  const { options, error, retry } = useLinkFormOptions()
  const [created, setCreated] = useState<{ id: number; shorturl: string }>()
  const [formKey, setFormKey] = useState(0)

  return (
    <>
      <PageHeader title="Create link" description="Shorten a URL and choose how its visitors are sent on." actions={<Link to="/bulk" className="button">Bulk create</Link>} />
      {created && (
        <div className="card success-card" role="status">
          <div>
            <p className="muted small">Your short link is ready</p>
            <p className="short-result"><a href={created.shorturl} target="_blank" rel="noreferrer">{created.shorturl}</a></p>
          </div>
          <div className="row wrap">
            <CopyButton text={created.shorturl} label="Copy short URL" className="button primary" />
            <Link to={`/links/${created.id}/analytics`} className="button">View analytics</Link>
            <Link to={`/links/${created.id}/edit`} className="button ghost">Edit</Link>
          </div>
        </div>
      )}
      {error ? <ErrorMessage error={error} onRetry={retry} /> : !options ? <Loading label="Loading your domains, campaigns, pixels and UTM templates…" /> : (
        <LinkForm
          key={formKey}
          mode="create"
          initial={emptyLinkForm}
          options={options}
          submitLabel="Create link"
          onSaveUtmTemplate={saveUtmTemplate}
          onSubmit={async (values) => {
            const result = await create.mutateAsync(toCreateBody(values))
            setCreated({ id: result.id, shorturl: result.shorturl })
            setFormKey((key) => key + 1)
            window.scrollTo({ top: 0 })
          }}
        />
      )}
    </>
  )
}

export function EditLinkPage() {
  const id = Number(useParams().id)
  const navigate = useNavigate()
  const update = useUpdateLink()
  const chooseWinner = useChooseWinner()
  const setCard = useSetCard()
  const saveUtmTemplate = useUtmTemplateSaver()
  const { options, error: optionsError, retry } = useLinkFormOptions()
  const link = useLink(id)

  const error = link.error ?? optionsError
  return (
    <>
      <PageHeader
        title="Edit link"
        description={link.data ? <a href={link.data.details.shorturl} target="_blank" rel="noreferrer">{link.data.details.shorturl}</a> : undefined}
        actions={<Link to={`/links/${id}/analytics`} className="button">Analytics</Link>}
      />
      {error ? <ErrorMessage error={error} onRetry={() => { void link.refetch(); retry() }} /> : !link.data || !options ? <Loading /> : (
        <LinkForm
          mode="edit"
          initial={valuesFromDetails(link.data.details, (origin) => options.domains.find((domain) => domain.domain === origin)?.id)}
          hasPassword={link.data.details.password}
          options={options}
          submitLabel="Save changes"
          onSaveUtmTemplate={saveUtmTemplate}
          variantClicks={link.data.details.variants?.map((variant) => variant.clicks)}
          card={{
            url: link.data.details.card,
            onUpload: (file) => setCard.mutateAsync({ id, file }),
            onRemove: () => setCard.mutateAsync({ id, file: null }),
          }}
          onChooseWinner={async (index) => {
            await chooseWinner.mutateAsync({ id, variant: index })
            navigate('/links', { state: { notice: `Variant ${index + 1} is now the link's destination.` } })
          }}
          onCancel={() => navigate('/links')}
          onSubmit={async (values) => {
            await update.mutateAsync({ id, body: toUpdateBody(values, link.data.details.alias) })
            navigate('/links', { state: { notice: 'Link saved.' } })
          }}
        />
      )}
    </>
  )
}
