/**
 * A private `redis-server` for tests that stop and restart Redis (never the shared one on 6379):
 * spawned on a free loopback port with no persistence (as FAULT-06 in
 * __tests__/security/rate-limit-redis.test.ts), stopped with `redis-cli shutdown nosave`, started
 * again on the same port (empty), killed by `close`.
 */
import { execFile, spawn, type ChildProcess } from "node:child_process"
import { promisify } from "node:util"
import { createClient } from "redis"
import { freePort } from "./ports.js"

const run = promisify(execFile)

export interface PrivateRedis {
  port: number
  url: string
  stop(): Promise<void>
  start(): Promise<void>
  close(): Promise<void>
}


async function ping(port: number): Promise<boolean> {
  try {
    const { stdout } = await run("redis-cli", ["-p", String(port), "ping"])
    return stdout.trim() === "PONG"
  } catch {
    return false
  }
}

/** Polls `check` every 50 ms until it is true; throws after `ms`. */
export async function until(check: () => boolean | Promise<boolean>, what: string, ms = 15_000): Promise<void> {
  const deadline = Date.now() + ms
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`gave up waiting for ${what}`)
    await new Promise((resume) => setTimeout(resume, 50))
  }
}

export async function startPrivateRedis(): Promise<PrivateRedis> {
  const port = await freePort()
  let server: ChildProcess | undefined
  const exited = () => !server || server.exitCode !== null || server.signalCode !== null
  const start = async () => {
    server = spawn("redis-server", ["--port", String(port), "--save", "", "--appendonly", "no", "--bind", "127.0.0.1"], { stdio: "ignore" })
    await until(() => ping(port), "redis-server to answer")
  }
  const stop = async () => {
    if (exited()) return
    const gone = new Promise((done) => server!.once("exit", done))
    await run("redis-cli", ["-p", String(port), "shutdown", "nosave"]).catch(() => undefined)
    await gone
  }
  await start()
  return {
    port,
    url: `redis://127.0.0.1:${port}`,
    start,
    stop,
    close: async () => {
      if (exited()) return
      const gone = new Promise((done) => server!.once("exit", done))
      server!.kill("SIGTERM")
      await gone
    },
  }
}

export type RedisClient = ReturnType<typeof createClient>

/**
 * A connected node-redis client that survives the server going away (errors ignored; it
 * reconnects). `disableOfflineQueue`: commands sent while disconnected fail at once instead of
 * waiting in the client for the server to come back.
 */
export async function quietClient(url: string, options: { disableOfflineQueue?: boolean } = {}): Promise<RedisClient> {
  const client = createClient({ url, ...options })
  client.on("error", () => undefined)
  await client.connect()
  return client
}
