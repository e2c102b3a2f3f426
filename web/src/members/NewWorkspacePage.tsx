// Create a workspace: its name (letters, digits, _ and -); you become its owner and the dashboard
// switches to it.
import { useState } from 'react'
import { useNavigate } from 'react-router'
import { useForgetAll } from '../account/account-queries'
import { Field } from '../components/Field'
import { FormError } from '../components/FormError'
import { PageHeader } from '../components/PageHeader'
import { useCheckedSubmit } from '../components/use-checked-submit'
import { useCreateWorkspace } from './member-queries'

export function NewWorkspacePage() {
  const create = useCreateWorkspace()
  const forgetAll = useForgetAll()
  const navigate = useNavigate()
  const [name, setName] = useState('')
  const form = useCheckedSubmit<'name'>({
    validate: () => (/^[A-Za-z0-9_-]{3,32}$/.test(name.trim()) ? {} : { name: 'Use 3 to 32 letters, digits, _ and -.' }),
    send: async () => {
      await create.mutateAsync(name.trim())
      // Everything cached belongs to the workspace left behind.
      forgetAll()
      await navigate('/', { replace: true })
    },
    fields: ['name'],
  })
  return (
    <>
      <PageHeader title="New workspace" description="A place of its own for links, QR codes and pages, with its own members. You will be its owner." />
      <form className="card stack narrow" onSubmit={form.submit} noValidate aria-label="New workspace">
        <Field label="Workspace name" error={form.errors.name} hint="3 to 32 letters, digits, _ and -; shown as the account's username to its API keys.">
          <input type="text" value={name} placeholder="marketing-team" onChange={(event) => setName(event.target.value)} />
        </Field>
        <FormError message={form.formError} />
        <div><button type="submit" className="button primary" disabled={form.submitting}>{form.submitting ? 'Creating…' : 'Create workspace'}</button></div>
      </form>
    </>
  )
}
