// Every key of the dashboard's query cache, from this one factory: a feature's *-queries.ts reads
// under its keys and declares, with each write, the keys the write makes stale; no page spells a
// key (web/scripts/dashboard-patterns.test.ts checks it). A key is the prefix of the keys under it,
// so refreshing `links.all` refreshes every page of the table, a link's details, the pickers'
// searches and the workspace's statistics, which change with the links.

/** An item with statistics of its own. */
type StatisticsItem = 'url' | 'qr' | 'campaign' | 'bio'
/** What a query asks of the server beyond its kind (a page's filters, a search, a statistics view): compared by value. */
type Query = object

export const queryKeys = {
  account: {
    /** The signed-in account (the session probe); as a prefix, everything of the account. */
    all: ['account'],
    keys: ['account', 'keys'],
    sessions: ['account', 'sessions'],
    usage: ['account', 'usage'],
    settings: ['account', 'settings'],
    twoFactor: ['account', 'two-factor'],
  },
  /** What the sign-in page offers before anyone signs in (GET /api/auth/options). */
  auth: {
    options: ['auth', 'options'],
  },
  /** Single sign-on (ADR 033): the sign-in page's providers, the workspace's settings, the administrator's providers. */
  sso: {
    providers: ['sso', 'providers'],
    workspace: ['sso', 'workspace'],
    adminProviders: ['sso', 'admin-providers'],
  },
  admin: {
    users: ['admin', 'users'],
    usersPage: (page: number) => ['admin', 'users', page],
    people: ['admin', 'people'],
    peoplePage: (page: number) => ['admin', 'people', page],
    plans: ['admin', 'plans'],
    system: ['admin', 'system'],
  },
  audit: {
    page: (query: Query) => ['audit', query],
  },
  bio: {
    all: ['bio'],
    list: (page: number, tags: readonly string[]) => ['bio', 'list', page, tags],
    one: (id: number) => ['bio', 'one', id],
    preview: (body: Query) => ['bio', 'preview', body],
    choices: ['bio', 'choices'],
  },
  campaigns: {
    all: ['campaigns'],
    page: (page: number) => ['campaigns', 'page', page],
    one: (id: number) => ['campaigns', 'one', id],
    choices: ['campaigns', 'choices'],
  },
  channels: {
    all: ['channels'],
    page: (page: number) => ['channels', 'page', page],
    one: (id: number) => ['channels', 'one', id],
    items: (id: number) => ['channels', 'items', id],
    itemsPage: (id: number, page: number) => ['channels', 'items', id, page],
    choices: ['channels', 'choices'],
  },
  /** Leads and sales (issue 39): the funnel, the top rows and the recent sales under a view. */
  conversions: {
    all: ['conversions'],
    funnel: (query: Query) => ['conversions', 'funnel', query],
    top: (query: Query) => ['conversions', 'top', query],
    sales: (query: Query) => ['conversions', 'sales', query],
  },
  domains: {
    all: ['domains'],
    pages: ['domains', 'page'],
    page: (page: number) => ['domains', 'page', page],
    one: (id: number) => ['domains', 'one', id],
    choices: ['domains', 'choices'],
    setup: ['domains', 'setup'],
    dns: (domain: string) => ['domains', 'dns', domain],
  },
  imports: {
    all: ['imports'],
    one: (id: number | undefined) => ['imports', 'one', id],
    pages: ['imports', 'page'],
    page: (page: number) => ['imports', 'page', page],
  },
  links: {
    /** Every link query, and the workspace's statistics (they change with the links). */
    all: ['links'],
    page: (filters: Query) => ['links', 'page', filters],
    one: (id: number) => ['links', 'one', id],
    latest: (limit: number) => ['links', 'latest', limit],
    search: (search: Query) => ['links', 'search', search],
    ofCampaign: (campaign: number, page: number) => ['links', 'campaign', campaign, page],
    statistics: ['links', 'statistics'],
    statisticsView: (query: Query) => ['links', 'statistics', 'view', query],
    live: (filters: Query) => ['links', 'statistics', 'live', filters],
  },
  members: {
    all: ['members'],
    invitation: (token: string) => ['invitation', token],
    /** The person's workspaces and their role in each. */
    workspaces: ['workspaces'],
  },
  overlays: {
    all: ['overlays'],
    page: (page: number) => ['overlays', 'page', page],
    one: (id: number) => ['overlays', 'one', id],
    choices: ['overlays', 'choices'],
    contacts: (id: number, page: number) => ['overlays', 'contacts', id, page],
    preview: (body: Query) => ['overlays', 'preview', body],
  },
  pixels: {
    all: ['pixels'],
    page: (page: number) => ['pixels', 'page', page],
    choices: ['pixels', 'choices'],
    providers: ['pixel-providers'],
  },
  qr: {
    all: ['qr'],
    pages: ['qr', 'page'],
    page: (page: number, tags: readonly string[]) => ['qr', 'page', page, tags],
    one: (id: number) => ['qr', 'one', id],
    choices: ['qr', 'choices'],
  },
  splash: {
    all: ['splash'],
    page: (page: number) => ['splash', 'page', page],
    one: (id: number) => ['splash', 'one', id],
    choices: ['splash', 'choices'],
    preview: (body: Query) => ['splash', 'preview', body],
  },
  statistics: {
    /** One item's statistics under a view (range, filters, granularity). */
    item: (item: StatisticsItem, id: number, query: Query) => ['statistics', item, id, query],
    live: (item: StatisticsItem, id: number, filters: Query) => ['statistics', item, id, 'live', filters],
  },
  tags: {
    all: ['tags'],
    page: (page: number) => ['tags', 'page', page],
    choices: ['tags', 'choices'],
  },
  utmTemplates: ['utm-templates'],
  webhooks: {
    all: ['webhooks'],
    page: (page: number) => ['webhooks', 'page', page],
    one: (id: number) => ['webhooks', 'one', id],
    deliveries: (id: number, page: number) => ['webhooks', 'deliveries', id, page],
  },
} as const
