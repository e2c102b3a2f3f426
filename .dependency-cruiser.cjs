// The layers of src/ and the direction imports may take (docs/architecture.md). Lowest first:
//   core → config, logger → db, redis, images → analytics → modules → services (the composition root)
//   → http (with every modules/*/*.routes.ts) → public → app → main, cli
// A file may import its own layer and any layer below it, never one above; and nothing may form
// a cycle, neither of files nor of folders. Type-only imports count: a cycle of types is still a
// knot for the reader.
const ROUTES = '^src/modules/[^/]+/[^/]+[.]routes[.]ts$'
const MODULES_NOT_ROUTES = '^src/modules/[^/]+/(?![^/]+[.]routes[.]ts$)'

/** A rule forbidding imports from `from` to `to`. */
function forbid(name, comment, from, to) {
  return { name, comment, severity: 'error', from, to }
}

/** A rule allowing imports of `target` (a path pattern) only from files matching `allowed`. */
function onlyFrom(name, comment, target, allowed) {
  return forbid(name, comment, { path: '^src/', pathNot: allowed }, { path: target })
}

module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      comment: 'Modules form no cycles (not even through types): each can be read without the ones that use it.',
      severity: 'error',
      from: {},
      to: { circular: true },
    },
    {
      name: 'no-folder-cycles',
      comment: 'Folders lean one way (issue 41): each folder (src/<folder>/, src/modules/<module>/; a folder inside one counts with it for what it imports) is one node, and no two import each other, directly or through others, not even through types. A module whose routes stand on http/ is one http/ cannot import: what the gate needs lives lower (modules/access), what metrics read is handed in.',
      severity: 'error',
      scope: 'folder',
      from: { path: '^src/' },
      to: { circular: true },
    },
    forbid('core-is-the-bottom', 'core/ depends on nothing else of Linkwell.', { path: '^src/core/' }, { path: '^src/', pathNot: '^src/core/' }),
    forbid('config-and-logger-stand-on-core', 'config.ts and logger.ts read the environment and know only core/.',
      { path: '^src/(config|logger)[.]ts$' }, { path: '^src/', pathNot: '^src/(core/|config[.]ts$)' }),
    forbid('db-and-redis-stand-on-core', 'db/ and redis/ (storage and connections) know only core/ and config.',
      { path: '^src/(db|redis)/' }, { path: '^src/', pathNot: '^src/(core/|config[.]ts$|db/|redis/)' }),
    forbid('db-dialect-stays-in-db', 'Only db/ tells SQLite from PostgreSQL: db/dialect.ts is its own (feature code uses db/errors.ts, db/id-lists.ts and the like, which ask for it).',
      { path: '^src/', pathNot: '^src/db/' }, { path: '^src/db/dialect[.]ts$' }),
    forbid('database-drivers-stay-in-db', 'Only db/ knows which database it is on: no other file imports a driver (pg, better-sqlite3), not even its types; what others need of one (shared counters) db/ hands out without it.',
      { path: '^src/', pathNot: '^src/db/' }, { path: '(^|/)node_modules/(@types/)?(pg|pg-[a-z-]+|better-sqlite3)/' }),
    forbid('images-stand-on-core', 'images/ (drawing QR symbols, loading sharp) is infrastructure: it knows only core/, so the modules that draw (QR codes, second factors, social cards) share it without leaning on each other.',
      { path: '^src/images/' }, { path: '^src/', pathNot: '^src/(core/|images/)' }),
    forbid('db-knows-no-redis', 'The database layer does not reach for Redis, nor Redis for the database.',
      { path: '^src/db/' }, { path: '^src/redis/' }),
    forbid('analytics-below-modules', 'analytics/ (click recording and aggregates) stands on core/ and db/ only.',
      { path: '^src/analytics/' }, { path: '^src/', pathNot: '^src/(core/|config[.]ts$|db/|analytics/)' }),
    forbid('modules-below-transports', 'Services, repositories, schemas and mappers know nothing of HTTP, visitors\' pages or wiring.',
      { path: MODULES_NOT_ROUTES }, { path: '^src/', pathNot: `^src/(core/|config[.]ts$|db/|images/|analytics/)|${MODULES_NOT_ROUTES}` }),
    forbid('composition-root-below-transports', 'services.ts builds services; it does not know how they are served.',
      { path: '^src/services[.]ts$' }, { path: `^src/(http/|public/|app[.]ts$|main[.]ts$|cli)|${ROUTES}` }),
    forbid('http-below-public', 'The API transport (http/ and the modules\' route files) does not reach into visitors\' pages or the entry points.',
      { path: `^src/http/|${ROUTES}` }, { path: '^src/(public/|app[.]ts$|main[.]ts$|cli)' }),
    forbid('transports-get-their-services', 'Route modules and visitors\' pages receive the services they use from app.ts: none reaches back up for the composition root.',
      { path: `^src/(http/|public/)|${ROUTES}` }, { path: '^src/services[.]ts$' }),
    forbid('public-renders-visits', 'What a visit serves and records is decided in modules/visits; public/ renders it and never builds clicks itself.',
      { path: '^src/public/' }, { path: '^src/analytics/' }),
    // The map's "one place" rows (docs/architecture.md), where an import can show it: each library or
    // file that embodies one idea is reached from its one place only.
    onlyFrom('one-visitor-reading', 'User agents are read in analytics/visitor-reading.ts only (ADR 007).', '(^|/)node_modules/ua-parser-js/', '^src/analytics/visitor-reading[.]ts$'),
    onlyFrom('one-country-lookup', 'Countries come from analytics/geo.ts only.', '(^|/)node_modules/maxmind/', '^src/analytics/geo[.]ts$'),
    onlyFrom('one-bot-list', 'Who is a bot is decided in analytics/visitor-reading.ts only.', '(^|/)node_modules/isbot/', '^src/analytics/visitor-reading[.]ts$'),
    onlyFrom('one-qr-renderer', 'QR symbols are drawn by images/qr-render.ts only.', '(^|/)node_modules/qrcode/', '^src/images/qr-render[.]ts$'),
    onlyFrom('one-throttle-factory', 'Counting what is limited goes through http/throttle.ts and its stores.', '(^|/)node_modules/rate-limiter-flexible/', '^src/(http/throttle|core/shared-counters|db/shared-counter-store|redis/shared-counter-store)[.]ts$'),
    onlyFrom('one-trust-rule', 'Who the client is behind TRUSTED_PROXIES is decided in http/client-address.ts only.', '(^|/)node_modules/@fastify/proxy-addr/', '^src/http/client-address[.]ts$'),
    onlyFrom('clicks-built-by-visits', 'The click a visit records is built by the visit service only (modules/visits/visitor.ts).', '^src/modules/visits/visitor[.]ts$', '^src/modules/visits/'),
    onlyFrom('one-journal', 'Every write goes through the change journal; nothing else opens it up.', '^src/modules/changes/change-journal[.]ts$', '^src/(modules/|services[.]ts$|cli/)'),
    forbid('public-below-app', 'What visitors see is registered by app.ts, never the other way round.',
      { path: '^src/public/' }, { path: '^src/(app[.]ts$|main[.]ts$|cli)' }),
    forbid('app-below-entry-points', 'app.ts is built by main.ts and tests; it knows no entry point.',
      { path: '^src/app[.]ts$' }, { path: '^src/(main[.]ts$|cli)' }),
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { extensions: ['.ts', '.js'] },
  },
}
