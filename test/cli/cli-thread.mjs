// The thread test/cli/cli-runner.ts runs command lines in: the CLI's own `runCommandLine` (the
// function the `linkwell` bin calls), with the test's environment, standard input and captured
// output. One thread per test file keeps the CLI's modules loaded between commands (a process per
// command spent a second loading them); a thread of its own keeps the CLI's database connections
// apart from the test's, as a process did (a SQLite writer waiting for a lock blocks its thread).
// Commands run one after another, as a person at a terminal runs them.
import { parentPort, workerData } from 'node:worker_threads'
import { Readable, Writable } from 'node:stream'

if (workerData.compile) {
  const { register } = await import('tsx/esm/api')
  register()
}
const { runCommandLine } = await import(workerData.entry)

/** A writable stream that keeps what is written to it. */
function capture() {
  const chunks = []
  const stream = new Writable({
    write(chunk, _encoding, done) {
      chunks.push(Buffer.from(chunk))
      done()
    },
  })
  return { stream, text: () => Buffer.concat(chunks).toString('utf8') }
}

let queue = Promise.resolve()
parentPort.on('message', ({ id, args, env, input }) => {
  queue = queue.then(async () => {
    const stdout = capture()
    const stderr = capture()
    const stdin = Readable.from(input === '' ? [] : [input])
    let code
    try {
      code = await runCommandLine(args, { env, stdin, stdout: stdout.stream, stderr: stderr.stream })
    } catch (error) {
      // runCommandLine never throws: a test that sees this has found a bug in it.
      stderr.stream.write(`runCommandLine threw: ${error?.stack ?? error}`)
      code = -1
    }
    parentPort.postMessage({ id, code, stdout: stdout.text(), stderr: stderr.text() })
  })
})
