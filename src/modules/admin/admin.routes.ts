// Administration endpoints (decisions §6): accounts and plans, for accounts flagged admin only.
import type { Static } from 'typebox'
import type { App } from '../../http/app-instance.js'
import type { UserAdministration } from './user-admin.service.js'
import type { PlanService } from '../plans/plan.service.js'
import { accountOf, requireAdmin } from '../../http/auth.js'
import type { ListEnvelope } from '../../http/list.js'
import { errorResponses } from '../../http/schemas.js'
import { toPersonRecord, toUserRecord } from './admin.mapper.js'
import { PersonListResponse, SystemResponse, UserCreateBody, UserCreatedResponse, UserListResponse, UserResponse } from './admin.schemas.js'
import { toPlanRecord } from '../plans/plan.mapper.js'
import { PlanAssignParams, PlanCreateBody, PlanListResponse, PlanResponse, PlanUpdateBody } from '../plans/plan.schemas.js'
import { toPageRequest } from '../../core/paging.js'
import { IdParams, MessageResponse, PageQuery } from '../../core/schemas.js'

const tags = ['admin']

/** What the routes use, handed over by app.ts (no route module reaches for the whole composition root). */
export interface AdminRouteDependencies {
  users: UserAdministration
  plans: PlanService
  /** The service's base URL, for the addresses answers carry. */
  publicUrl: string
  /** The server's list envelope (its `error` as LIST_ERROR_FORMAT says). */
  listEnvelope: ListEnvelope
  /** Which statistics engine answers (the system page). */
  statistics: { status(): Promise<Static<typeof SystemResponse>['data']['statistics']> }
}

export function registerAdminRoutes(app: App, { users, plans, publicUrl, listEnvelope, statistics }: AdminRouteDependencies): void {
  // Admin-only, checked as a route onRequest hook (after the API gate authenticated the key, before
  // body parsing and validation), so a non-admin learns nothing about ids or body rules: always 403.
  const onRequest = requireAdmin

  app.get('/api/users', {
    onRequest,
    schema: { tags, summary: 'List accounts', querystring: PageQuery, response: { 200: UserListResponse, ...errorResponses } },
  }, async (request) => {
    const page = toPageRequest(request.query)
    const { rows, total } = await users.listUsers(page)
    return listEnvelope('users', page, total, rows.map((row) => toUserRecord(row, publicUrl)))
  })

  app.get('/api/admin/people', {
    onRequest,
    schema: { tags, summary: 'List the people who sign in, with their workspaces and roles', querystring: PageQuery, response: { 200: PersonListResponse, ...errorResponses } },
  }, async (request) => {
    const page = toPageRequest(request.query)
    const { rows, total } = await users.listPeople(page)
    return listEnvelope('people', page, total, rows.map(toPersonRecord))
  })

  app.get('/api/admin/system', {
    onRequest,
    schema: { tags, summary: 'Which engine answers statistics, and how far it is', response: { 200: SystemResponse, ...errorResponses } },
  }, async () => ({ error: 0 as const, data: { statistics: await statistics.status() } }))

  app.get('/api/user/:id', {
    onRequest,
    schema: { tags, summary: 'Read an account', params: IdParams, response: { 200: UserResponse, ...errorResponses } },
  }, async (request) => {
    const user = await users.getUserOrThrow(request.params.id)
    return { error: 0 as const, data: toUserRecord(user, publicUrl) }
  })

  app.post('/api/user/add', {
    onRequest,
    schema: { tags, summary: 'Create an account and its first API key (shown once)', body: UserCreateBody, response: { 201: UserCreatedResponse, ...errorResponses } },
  }, async (request, reply) => {
    const created = await users.createUser(accountOf(request), request.body)
    return reply.code(201).send({ error: 0 as const, ...created })
  })

  app.delete('/api/user/:id/delete', {
    onRequest,
    schema: { tags, summary: 'Delete an account and everything it owns', params: IdParams, response: { 200: MessageResponse, ...errorResponses } },
  }, async (request) => {
    await users.deleteUser(accountOf(request), request.params.id)
    return { error: 0 as const, message: 'User has been deleted successfully.' }
  })

  app.put('/api/user/:id/suspend', {
    onRequest,
    schema: { tags, summary: 'Suspend an account (its keys answer 403)', params: IdParams, response: { 200: MessageResponse, ...errorResponses } },
  }, async (request) => {
    await users.setSuspended(accountOf(request), request.params.id, true)
    return { error: 0 as const, message: 'User has been suspended successfully.' }
  })

  app.put('/api/user/:id/unsuspend', {
    onRequest,
    schema: { tags, summary: 'Lift a suspension', params: IdParams, response: { 200: MessageResponse, ...errorResponses } },
  }, async (request) => {
    await users.setSuspended(accountOf(request), request.params.id, false)
    return { error: 0 as const, message: 'User has been unsuspended successfully.' }
  })

  app.get('/api/plans', {
    onRequest,
    schema: { tags, summary: 'List plans', querystring: PageQuery, response: { 200: PlanListResponse, ...errorResponses } },
  }, async (request) => {
    const page = toPageRequest(request.query)
    const { rows, total } = await plans.listPlans(page)
    return listEnvelope('plans', page, total, rows.map(toPlanRecord))
  })

  app.post('/api/plan/add', {
    onRequest,
    schema: { tags, summary: 'Create a plan (name and code unique; limits per resource, a resource left out is unlimited)', body: PlanCreateBody, response: { 201: PlanResponse, ...errorResponses } },
  }, async (request, reply) => {
    const plan = await plans.createPlan(accountOf(request), request.body)
    return reply.code(201).send({ error: 0 as const, data: toPlanRecord(plan) })
  })

  app.put('/api/plan/:id/update', {
    onRequest,
    schema: { tags, summary: 'Change a plan (limits replace the whole set); its accounts get the new rate and limits at once', params: IdParams, body: PlanUpdateBody, response: { 200: PlanResponse, ...errorResponses } },
  }, async (request) => {
    const plan = await plans.updatePlan(accountOf(request), request.params.id, request.body)
    return { error: 0 as const, data: toPlanRecord(plan) }
  })

  app.delete('/api/plan/:id/delete', {
    onRequest,
    schema: { tags, summary: 'Delete a plan no account is on (the default plan cannot be deleted)', params: IdParams, response: { 200: MessageResponse, ...errorResponses } },
  }, async (request) => {
    await plans.deletePlan(accountOf(request), request.params.id)
    return { error: 0 as const, message: 'Plan has been deleted successfully.' }
  })

  app.put('/api/plan/:id/user/:userid', {
    onRequest,
    schema: { tags, summary: 'Move an account to a plan', params: PlanAssignParams, response: { 200: MessageResponse, ...errorResponses } },
  }, async (request) => {
    await users.assignPlan(accountOf(request), request.params.id, request.params.userid)
    return { error: 0 as const, message: 'Plan has been updated for the user.' }
  })
}
