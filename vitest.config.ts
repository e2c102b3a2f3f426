import { defineConfig } from 'vitest/config'

// Every database test runs once per dialect: the `sqlite` project always, the `postgres` project
// when TEST_DATABASE_URL is set (test/global-setup.ts says what was skipped). Unit tests
// (`*.unit.test.ts`) touch no database and run once. The `web` project runs the dashboard's
// component tests in jsdom.
const postgresUrl = process.env.TEST_DATABASE_URL

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
    // Most of a test file's time is spent waiting (on PostgreSQL, a child process, the browser), so
    // three files at a time keep two cores busy where vitest's default (cores − 1) ran one at a time.
    // TEST_WORKERS sets another number (1 runs the files one after another).
    maxWorkers: Number(process.env.TEST_WORKERS ?? 3),
    minWorkers: 1,
    projects: [
      {
        extends: true,
        test: { name: 'sqlite', include: ['test/**/*.test.ts'], exclude: ['test/scale/**'], env: { TEST_DIALECT: 'sqlite' } },
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
          include: ['web/src/**/*.test.{ts,tsx}', 'web/scripts/**/*.test.ts'],
          environment: 'jsdom',
          environmentOptions: { jsdom: { url: 'http://localhost:3000/app/' } },
          setupFiles: ['web/src/test-setup.ts'],
        },
      },
    ],
  },
})
