// `linkwell plan create|list`: plans, as the administration API makes and shows them.
import { toPlanRecord } from '../modules/plans/plan.mapper.js'
import { LIMITED_RESOURCES } from '../modules/plans/plan-limits.js'
import { text, UsageError, wholeNumber, type Command } from './command.js'

export const PLAN_COMMANDS: Command[] = [
  {
    name: 'plan create',
    usage: '--name N --code C [--apirate N] [--limit resource=N ...]',
    summary: `create a plan; resources: ${LIMITED_RESOURCES.join(', ')}`,
    options: { name: { type: 'string' }, code: { type: 'string' }, apirate: { type: 'string' }, limit: { type: 'string', multiple: true } },
    required: ['name', 'code'],
    async run(values, { plans }) {
      const apirate = text(values, 'apirate')
      const limits: Record<string, number> = {}
      for (const entry of (values.limit as string[] | undefined) ?? []) {
        const match = /^([a-z]+)=(\d{1,10})$/.exec(entry)
        if (!match) throw new UsageError(`--limit must be resource=N, got "${entry}"`)
        limits[match[1]!] = Number(match[2])
      }
      const plan = await plans.createPlan(null, {
        name: text(values, 'name')!,
        code: text(values, 'code')!,
        apirate: apirate === undefined ? null : wholeNumber(apirate, 'apirate'),
        limits,
      })
      return toPlanRecord(plan)
    },
  },
  {
    name: 'plan list',
    usage: '',
    summary: 'list plans',
    options: {},
    async run(_values, { plans }) {
      return (await plans.listAllPlans()).map(toPlanRecord)
    },
  },
]
