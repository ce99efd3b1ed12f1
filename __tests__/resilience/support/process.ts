/**
 * App processes for the load, scale-out and timing runs: each app is its own Node process
 * (`node --expose-gc support/apps/<file>`), so its heap, log lines and event loop are its own and not
 * Jest's. Started with NODE_ENV=production, AUTH_URL http://app.test:3000/auth (the catalog's BASE;
 * every URL Gatehouse writes uses it, whatever port the process listens on), and `env`.
 */
import { spawn, type ChildProcess } from "node:child_process"
import { readdirSync } from "node:fs"
import { fileURLToPath } from "node:url"

export const APP = fileURLToPath(new URL("./apps/gatehouse-app.js", import.meta.url))
export const BASE = "http://app.test:3000"
export const POSTGRES_URL = process.env.GATEHOUSE_TEST_POSTGRES_URL ?? "postgres://postgres@127.0.0.1:5432/test"
export const REDIS_URL = process.env.GATEHOUSE_TEST_REDIS_URL ?? "redis://127.0.0.1:6379"

const READY_TIMEOUT_MS = 30_000

export interface AppProcess {
  name: string
  origin: string
  port: number
  pid: number
  /** Lines the app has written to stderr so far (the logger's output). */
  stderrLines(): number
  stderr(): string
  /** Heap in use after full garbage collections, in bytes (GET /__heap). */
  heap(): Promise<number>
  /** The heap as above and the event loop's p99 delay (ms) since the previous sample. */
  sample(): Promise<{ heap: number; loopP99Ms: number }>
  /** Open file descriptors of the process (Linux /proc), or NaN elsewhere. */
  fds(): number
  stop(): Promise<void>
}

const running = new Set<ChildProcess>()
// Should the test process end without its afterAll (a crash, a timeout), it takes its apps along.
process.once("exit", () => {
  for (const child of running) child.kill("SIGKILL")
})

/** Starts `file` (default: the configurable Gatehouse app) with `env`; resolves once it listens. */
export function startApp(name: string, env: Record<string, string | undefined>, file = APP): Promise<AppProcess> {
  const childEnv: NodeJS.ProcessEnv = { ...process.env, NODE_ENV: "production", AUTH_URL: `${BASE}/auth`, ...env }
  delete childEnv.NODE_OPTIONS // Jest's --experimental-vm-modules is not the app's business
  delete childEnv.AUTH_SECRET
  const child = spawn(process.execPath, ["--expose-gc", file], { env: childEnv, stdio: ["ignore", "pipe", "pipe"] })
  running.add(child)
  let stderr = ""
  let lines = 0
  let stdout = ""
  child.stderr!.setEncoding("utf8").on("data", (chunk: string) => {
    lines += chunk.split("\n").length - 1
    if (stderr.length < 1_000_000) stderr += chunk
  })
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill("SIGKILL")
      reject(new Error(`${name} did not start within ${READY_TIMEOUT_MS / 1000} s:\n${stderr}`))
    }, READY_TIMEOUT_MS)
    const exited = (code: number | null) => {
      clearTimeout(timer)
      running.delete(child)
      reject(new Error(`${name} exited before it was ready (code ${code}):\n${stderr}`))
    }
    child.once("exit", exited)
    child.stdout!.setEncoding("utf8").on("data", (chunk: string) => {
      stdout += chunk
      const match = /READY (\d+)/.exec(stdout)
      if (!match || !child.stdout!.listenerCount("data")) return
      child.stdout!.removeAllListeners("data")
      child.stdout!.resume()
      clearTimeout(timer)
      child.off("exit", exited)
      const port = Number(match[1])
      const origin = `http://127.0.0.1:${port}`
      const sample = async () => {
        const answer = (await (await fetch(`${origin}/__heap`)).json()) as { heapUsed: number; gc: boolean; loopP99Ms: number }
        if (!answer.gc) throw new Error(`${name} runs without --expose-gc`)
        return { heap: answer.heapUsed, loopP99Ms: answer.loopP99Ms }
      }
      resolve({
        name,
        origin,
        port,
        pid: child.pid!,
        stderrLines: () => lines,
        stderr: () => stderr,
        async heap() {
          return (await sample()).heap
        },
        sample,
        fds() {
          try {
            return readdirSync(`/proc/${child.pid}/fd`).length
          } catch {
            return NaN
          }
        },
        stop: () => stopChild(child),
      })
    })
  })
}

function stopChild(child: ChildProcess): Promise<void> {
  return new Promise((done) => {
    if (child.exitCode !== null || child.signalCode !== null) {
      running.delete(child)
      done()
      return
    }
    const kill = setTimeout(() => child.kill("SIGKILL"), 5_000)
    child.once("exit", () => {
      clearTimeout(kill)
      running.delete(child)
      done()
    })
    child.kill("SIGTERM")
  })
}

/** Stops every app this test file started and has not stopped (for afterAll). */
export async function stopAll(): Promise<void> {
  await Promise.all([...running].map(stopChild))
}

/** Heap growth of `sample` over `first`, in percent. */
export const growth = (first: number, sample: number): number => ((sample - first) / first) * 100
export const mb = (bytes: number): string => (bytes / 1024 / 1024).toFixed(2)

/** The q-quantile (0..1) of `values`, by nearest rank. */
export function quantile(values: readonly number[], q: number): number {
  const sorted = [...values].sort((a, b) => a - b)
  if (!sorted.length) return NaN
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))] as number
}

/**
 * How many standard errors a timing test allows between two medians on a loaded machine. Two
 * (about 1 run in 20 failing with no leak at all, and several such tests per run) failed a CI run
 * at 2.6 σ; three fail about 1 run in 370. The leaks these tests look for (a scrypt skipped, a
 * lookup skipped) cost far more than either bound where the machine is loaded enough to need it.
 */
export const SIGMAS = 3

/**
 * The standard error of a difference of two medians (normal approximation: 1.2533 σ/√n, σ from the
 * interquartile range). On a quiet machine it is far under the tests' fixed bounds, which then
 * apply; on a loaded one it is what can be measured at all.
 */
export function medianDifferenceError(a: readonly number[], b: readonly number[]): number {
  const error = (values: readonly number[]) => (1.2533 * ((quantile(values, 0.75) - quantile(values, 0.25)) / 1.349)) / Math.sqrt(values.length)
  return Math.hypot(error(a), error(b))
}

/** Prints a small table of measured numbers (one line per row) with a title. */
export function report(title: string, rows: Record<string, string | number>[]): void {
  if (!rows.length) return
  const columns = Object.keys(rows[0]!)
  const cell = (value: unknown) => (typeof value === "number" ? (Number.isInteger(value) ? String(value) : value.toFixed(2)) : String(value))
  const widths = columns.map((column) => Math.max(column.length, ...rows.map((row) => cell(row[column]).length)))
  const line = (values: string[]) => values.map((value, i) => value.padStart(widths[i]!)).join(" | ")
  console.log([`== ${title}`, line(columns), widths.map((w) => "-".repeat(w)).join("-+-"), ...rows.map((row) => line(columns.map((column) => cell(row[column]))))].join("\n"))
}
