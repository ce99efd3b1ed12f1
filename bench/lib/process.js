// The runner side of a benchmark server: starts bench/servers/<file> as its own Node process
// (with --expose-gc), waits for its port, pins it to one core when the machine has taskset and
// more than one core, and asks it for CPU time and heap over IPC.
import { spawn, execFileSync } from "node:child_process"
import { cpus } from "node:os"

const READY_TIMEOUT = 30_000
const ANSWER_TIMEOUT = 60_000

// Counted before anything is pinned (pinning this process narrows what it reports as available).
const CORES = cpus().length

function pin(pid, core) {
  if (CORES < 2) return false
  try {
    execFileSync("taskset", ["-a", "-cp", String(core), String(pid)], { stdio: "ignore" })
    return true
  } catch {
    return false
  }
}

/** Pins this (the load generator's) process to core 0, away from the servers on core 1. */
export function pinRunner() {
  return pin(process.pid, 0)
}

/**
 * Starts `file` with `env` added to this process's environment (and `nodeArgs` given to node,
 * like --cpu-prof). Resolves to
 * `{ origin, pinned, cpu(), heap(), memory(), stop() }` once the server listens.
 */
export function startServer(file, env = {}, { nodeArgs = [] } = {}) {
  const child = spawn(process.execPath, ["--expose-gc", ...nodeArgs, file], {
    stdio: ["ignore", "inherit", "inherit", "ipc"],
    env: { ...process.env, NODE_ENV: "production", ...env },
  })
  let nextId = 0
  const waiting = new Map()
  child.on("message", (message) => {
    const resolve = waiting.get(message?.id)
    if (resolve) {
      waiting.delete(message.id)
      resolve(message)
    }
  })
  const ask = (type) =>
    new Promise((resolve, reject) => {
      const id = ++nextId
      const timer = setTimeout(() => reject(new Error(`${file} did not answer "${type}"`)), ANSWER_TIMEOUT)
      waiting.set(id, (message) => {
        clearTimeout(timer)
        resolve(message)
      })
      child.send({ type, id })
    })

  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill("SIGKILL")
      reject(new Error(`${file} did not start within ${READY_TIMEOUT / 1000} s`))
    }, READY_TIMEOUT)
    child.once("exit", (code, signal) => {
      clearTimeout(timer)
      reject(new Error(`${file} exited before it was ready (code ${code}, signal ${signal})`))
    })
    child.on("message", (message) => {
      if (message?.type !== "ready") return
      clearTimeout(timer)
      child.removeAllListeners("exit")
      resolve({
        origin: `http://127.0.0.1:${message.port}`,
        pinned: pin(child.pid, 1),
        /** Microseconds of CPU (user + system) the server has used so far. */
        cpu: async () => {
          const { usage } = await ask("cpu")
          return usage.user + usage.system
        },
        /** Bytes of heap in use after full garbage collections. */
        heap: async () => {
          const answer = await ask("heap")
          if (!answer.gc) throw new Error(`${file} runs without --expose-gc`)
          return answer.heapUsed
        },
        /** Heap in use and resident set size (bytes), after full garbage collections. */
        memory: async () => {
          const answer = await ask("heap")
          if (!answer.gc) throw new Error(`${file} runs without --expose-gc`)
          return { heapUsed: answer.heapUsed, rss: answer.rss }
        },
        stop: () =>
          new Promise((done) => {
            const kill = setTimeout(() => child.kill("SIGKILL"), 5_000)
            child.once("exit", () => {
              clearTimeout(kill)
              done()
            })
            child.send({ type: "stop" })
          }),
      })
    })
  })
}
