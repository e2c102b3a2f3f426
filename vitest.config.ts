import { defineConfig } from 'vitest/config'
import { BaseSequencer, type TestSpecification } from 'vitest/node'

// Every database test runs once per dialect: the `sqlite` project always, the `postgres` project
// when TEST_DATABASE_URL is set (test/global-setup.ts says what was skipped). Unit tests
// (`*.unit.test.ts`) touch no database and run once. The `e2e` project runs the browser walks and
// the built server's tests once (each walk visits both databases itself). The `web` project runs
// the dashboard's component tests in jsdom.
const postgresUrl = process.env.TEST_DATABASE_URL
const workers = Number(process.env.TEST_WORKERS ?? 3)

/**
 * Without isolation vitest runs the Node projects one after another (it recycles the workers between
 * them), so a project's slowest files decide how long its last minutes keep workers idle. The
 * browser walks (the longest files) go first, while the dashboard's component tests fill the gaps
 * in their own pool; then the database projects, each in vitest's order (the slowest known first).
 */
class BrowserWalksFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files)
    const walk = (file: TestSpecification) => file.project.name === 'e2e'
    return [...sorted.filter(walk), ...sorted.filter((file) => !walk(file))]
  }
}

export default defineConfig({
  test: {
    globalSetup: ['test/global-setup.ts'],
    // Tests reach only loopback addresses: no DNS query leaves this machine (the file says how).
    setupFiles: ['test/helpers/local-dns-only.mjs'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // expect.poll waits for what a test cannot await (a page's next render, a worker's next round):
    // its default of one second is a speed the machine must reach, which a busy CI core does not
    // (a dashboard walk failed so). A poll that succeeds returns at once; only a failing one waits.
    expect: { poll: { timeout: 15_000 } },
    pool: 'forks',
    sequence: { sequencer: BrowserWalksFirst },
    // A worker process runs file after file with the modules it has loaded (no `isolate`): loading
    // the app's ~400 modules and their packages again for every file took 596 s of the 2,700 s the
    // workers spent (vitest's "collect"), on a machine whose two cores were busy throughout. Files share nothing but modules: each builds its own
    // app, database and clock (docs/testing.md). The dashboard's component tests run in a fresh VM context each (web).
    isolate: false,
    // Most of a test file's time is spent waiting (on PostgreSQL, the browser), so three files at a
    // time keep two cores busy. TEST_WORKERS sets another number (1 runs the files one after another).
    // A fixed pool: with fewer kept than allowed, tinypool ends an idle worker while vitest hands it
    // the next file, and the run dies ("Terminating worker thread", vitest 3.2 without isolation).
    maxWorkers: workers,
    minWorkers: workers,
    projects: [
      {
        extends: true,
        // The dashboard's script checks (web/scripts: the API types are current, the dashboard's patterns)
        // read files and build the server's OpenAPI document: node tests that run once, here.
        test: { name: 'sqlite', include: ['test/**/*.test.ts', 'web/scripts/**/*.test.ts'], exclude: ['test/scale/**', 'test/e2e/**'], env: { TEST_DIALECT: 'sqlite' } },
      },
      {
        extends: true,
        test: {
          name: 'e2e',
          include: ['test/e2e/**/*.test.ts'],
          env: { TEST_DIALECT: 'sqlite' },
          // A browser walk through several pages with pictures at two widths takes a minute on a
          // loaded two-core machine: three minutes a test, not 30 s, as a hang guard.
          testTimeout: 180_000,
        },
      },
      ...(postgresUrl
        ? [
            {
              extends: true as const,
              test: {
                name: 'postgres',
                include: ['test/**/*.test.ts'],
                exclude: ['test/**/*.unit.test.ts', 'test/e2e/**'],
                env: { TEST_DIALECT: 'postgres' },
              },
            },
          ]
        : []),
      {
        extends: true,
        test: {
          name: 'web',
          include: ['web/src/**/*.test.{ts,tsx}'],
          environment: 'jsdom',
          // A hang guard, not a speed test: a form test types into many fields, and beside the
          // browser walks on a loaded machine one took 30 s (two cores, one kept busy).
          testTimeout: 120_000,
          // A fresh context per file: React and the testing library bind to the document of the first
          // file's jsdom and would render the next file's components into it. vmThreads gives each
          // file a new VM context (and jsdom window) in a worker that stays, which keeps jsdom and the
          // transformed modules loaded: a fresh thread per file (the isolated threads pool) took 138 s
          // of CPU for this project's 39 files where this takes 58 s (docs/testing.md).
          pool: 'vmThreads',
          environmentOptions: { jsdom: { url: 'http://localhost:3000/app/' } },
          setupFiles: ['web/src/test-setup.ts'],
        },
      },
    ],
  },
})
