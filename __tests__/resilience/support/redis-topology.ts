/**
 * Private Redis topologies for the failover runs (issue #34), from the server binaries on PATH
 * (`redis-server`, and `valkey-server` when there is one): each server its own child process on a
 * free loopback port, in its own temp dir, `--save "" --appendonly no`; all of them killed (and
 * their dirs removed) by `close()`, and by this process's exit should the suite die first.
 *
 *   startCluster(server)   three primaries, three replicas (`<cli> --cluster create ...
 *                          --cluster-replicas 1 --cluster-yes`), cluster-node-timeout 1 s
 *   startSentinels(server) a primary, its replica, three Sentinels (`<server> <conf> --sentinel`:
 *                          no redis-sentinel package needed), quorum 2, down-after 1 s
 *
 * Readiness is polled (never a fixed sleep); failover is caused by SIGKILL of a primary, and a
 * killed server can be started again on its port (it comes back as a replica).
 */
import { execFile, spawn, type ChildProcess } from "node:child_process"
import { accessSync, constants, mkdtempSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { delimiter, join } from "node:path"
import { promisify } from "node:util"
import { freePort } from "../../helpers/ports.js"

const run = promisify(execFile)
const READY_MS = 60_000

/** A server binary and its CLI ("redis-server"/"redis-cli", "valkey-server"/"valkey-cli"). */
export interface ServerKind {
  name: "redis" | "valkey"
  server: string
  cli: string
}

function onPath(file: string): string | undefined {
  for (const dir of (process.env.PATH ?? "").split(delimiter)) {
    try {
      accessSync(join(dir, file), constants.X_OK)
      return join(dir, file)
    } catch {
      // not here
    }
  }
  return undefined
}

/**
 * The server binaries to run against: redis-server (required), and valkey-server when one is on
 * PATH (Debian bookworm has no valkey package and npm has no server binary, so usually not).
 */
export function serverKinds(): ServerKind[] {
  const kinds: ServerKind[] = []
  const redis = onPath("redis-server")
  if (redis) kinds.push({ name: "redis", server: redis, cli: onPath("redis-cli") ?? "redis-cli" })
  const valkey = onPath("valkey-server")
  if (valkey) kinds.push({ name: "valkey", server: valkey, cli: onPath("valkey-cli") ?? onPath("redis-cli") ?? "redis-cli" })
  return kinds
}

const running = new Set<ChildProcess>()
const dirs = new Set<string>()
process.once("exit", () => {
  for (const child of running) child.kill("SIGKILL")
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true })
})

export async function until<T>(check: () => T | undefined | false | Promise<T | undefined | false>, what: string, ms = READY_MS): Promise<T> {
  const deadline = Date.now() + ms
  for (;;) {
    const value = await Promise.resolve()
      .then(check)
      .catch(() => undefined)
    if (value) return value
    if (Date.now() > deadline) throw new Error(`gave up waiting for ${what}`)
    await new Promise((resume) => setTimeout(resume, 100))
  }
}

/** A free port whose cluster bus port (+10000) is free too. */
async function clusterPort(): Promise<number> {
  for (;;) {
    const port = await freePort()
    if (port + 10000 > 65535) continue
    const bus = await new Promise<boolean>((resolve) => {
      import("node:net").then(({ createServer }) => {
        const server = createServer()
        server.once("error", () => resolve(false))
        server.listen(port + 10000, "127.0.0.1", () => server.close(() => resolve(true)))
      }, () => resolve(false))
    })
    if (bus) return port
  }
}

export interface ServerProcess {
  port: number
  /** SIGKILL: no shutdown, no goodbye to the cluster or the Sentinels. */
  kill(): Promise<void>
  /** Starts it again on its port, with its dir (a cluster node keeps its nodes.conf), and `extra` arguments. */
  start(extra?: string[]): Promise<void>
  alive(): boolean
}

function serverProcess(kind: ServerKind, port: number, dir: string, args: string[]): ServerProcess {
  let child: ChildProcess | undefined
  const alive = () => !!child && child.exitCode === null && child.signalCode === null
  const start = async (extra: string[] = []) => {
    const log: string[] = []
    child = spawn(kind.server, [...args, ...extra], { cwd: dir, stdio: ["ignore", "pipe", "pipe"] })
    child.stdout!.setEncoding("utf8").on("data", (chunk: string) => void (log.length < 200 && log.push(chunk)))
    child.stderr!.resume()
    running.add(child)
    const started = child
    started.once("exit", () => running.delete(started))
    await until(async () => alive() && (await cli(kind, port, "PING")) === "PONG", `${kind.server} on port ${port}:\n${log.join("")}`)
  }
  return {
    port,
    alive,
    start,
    async kill() {
      if (!alive()) return
      const gone = new Promise((done) => child!.once("exit", done))
      child!.kill("SIGKILL")
      await gone
    },
  }
}

/** One CLI command against 127.0.0.1:`port`; its output, trimmed. */
export async function cli(kind: ServerKind, port: number, ...args: string[]): Promise<string> {
  const { stdout } = await run(kind.cli, ["-h", "127.0.0.1", "-p", String(port), ...args], { timeout: 10_000 })
  return stdout.trim()
}

export interface Topology {
  kind: ServerKind
  servers: ServerProcess[]
  close(): Promise<void>
}

function tempDir(label: string): string {
  const dir = mkdtempSync(join(tmpdir(), `gh-${label}-`))
  dirs.add(dir)
  return dir
}

async function closeAll(servers: ServerProcess[], dir: string): Promise<void> {
  await Promise.all(servers.map((server) => server.kill()))
  rmSync(dir, { recursive: true, force: true })
  dirs.delete(dir)
}

export interface Cluster extends Topology {
  /** host:port of every node, for `new Cluster(...)`. */
  nodes: Array<{ host: string; port: number }>
  /** The port of the primary serving `slot` now (asked of a live node). */
  primaryOf(slot: number): Promise<number>
  /** The port of the replica of the primary on `port` (per CLUSTER NODES). */
  replicaOf(port: number): Promise<number>
  /** Whether every live node reports cluster_state:ok and `slot` is served by a live primary. */
  healthy(slot: number): Promise<boolean>
  server(port: number): ServerProcess
  /** INFO `section` of the node on `port`. */
  info(port: number, section: string): Promise<string>
}

export async function startCluster(kind: ServerKind): Promise<Cluster> {
  const root = tempDir(`${kind.name}-cluster`)
  const servers: ServerProcess[] = []
  try {
    for (let i = 0; i < 6; i++) {
      const port = await clusterPort()
      const dir = join(root, String(port))
      rmSync(dir, { recursive: true, force: true })
      await import("node:fs").then(({ mkdirSync }) => mkdirSync(dir))
      const args = ["--port", String(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no", "--dir", dir, "--cluster-enabled", "yes", "--cluster-config-file", "nodes.conf"]
      // Failover within seconds: a primary is failed 1 s after it stops answering; its replica
      // may always take over (no data-age limit); a replica (re)joining is synced at once.
      args.push("--cluster-node-timeout", "1000", "--cluster-replica-validity-factor", "0", "--loglevel", "warning", "--repl-diskless-sync-delay", "0")
      servers.push(serverProcess(kind, port, dir, args))
    }
    await Promise.all(servers.map((server) => server.start()))
    await run(kind.cli, ["--cluster", "create", ...servers.map((server) => `127.0.0.1:${server.port}`), "--cluster-replicas", "1", "--cluster-yes"], { timeout: 60_000 })
    const slotsOk = async (port: number) => /cluster_state:ok/.test(await cli(kind, port, "CLUSTER", "INFO"))
    await until(async () => (await Promise.all(servers.map((server) => slotsOk(server.port)))).every(Boolean), "every node to report cluster_state:ok")
    // And every replica attached (a replica's link to its primary up).
    // And every replica in sync (WAIT counts only replicas past their first sync).
    await until(
      async () => (await Promise.all(servers.map((server) => cli(kind, server.port, "INFO", "replication")))).filter((info) => /role:master/.test(info) && /slave0:.*state=online/.test(info)).length === 3,
      "three replicas in sync",
    )
  } catch (error) {
    await closeAll(servers, root)
    throw error
  }
  const live = () => servers.filter((server) => server.alive())
  const nodesTable = async () => {
    for (const server of live()) {
      try {
        return (await cli(kind, server.port, "CLUSTER", "NODES")).split("\n").map((line) => line.split(" "))
      } catch {
        // ask the next
      }
    }
    throw new Error("no live node answers CLUSTER NODES")
  }
  const primaryOf = async (slot: number) => {
    for (const row of await nodesTable()) {
      if (!/master/.test(row[2] ?? "") || /fail/.test(row[2] ?? "")) continue
      for (const range of row.slice(8)) {
        const [from, to = from] = range.split("-").map(Number) as [number, number?]
        if (slot >= from && slot <= (to as number)) return Number(row[1]!.split(":")[1]!.split("@")[0])
      }
    }
    throw new Error(`no primary serves slot ${slot}`)
  }
  return {
    kind,
    servers,
    nodes: servers.map((server) => ({ host: "127.0.0.1", port: server.port })),
    primaryOf,
    async replicaOf(port) {
      const table = await nodesTable()
      const id = table.find((row) => row[1]?.startsWith(`127.0.0.1:${port}@`))?.[0]
      const replica = table.find((row) => row[3] === id && /slave/.test(row[2] ?? ""))
      if (!replica) throw new Error(`no replica of ${port}`)
      return Number(replica[1]!.split(":")[1]!.split("@")[0])
    },
    async healthy(slot) {
      try {
        const primary = await primaryOf(slot)
        if (!servers.find((server) => server.port === primary)?.alive()) return false
        return (await Promise.all(live().map(async (server) => /cluster_state:ok/.test(await cli(kind, server.port, "CLUSTER", "INFO"))))).every(Boolean)
      } catch {
        return false
      }
    },
    server: (port) => servers.find((server) => server.port === port)!,
    info: (port, section) => cli(kind, port, "INFO", section),
    close: () => closeAll(servers, root),
  }
}

export interface Sentinels extends Topology {
  name: string
  sentinels: Array<{ host: string; port: number }>
  /** The primary's port as the Sentinels report it (a majority agreeing). */
  primaryPort(): Promise<number>
  server(port: number): ServerProcess
}

export async function startSentinels(kind: ServerKind, name = "gatehouse"): Promise<Sentinels> {
  const root = tempDir(`${kind.name}-sentinel`)
  const servers: ServerProcess[] = []
  try {
    const [primaryPort, replicaPort] = [await freePort(), await freePort()]
    // A replica (re)joining is synced at once (Redis waits 5 s by default for more to join).
    const common = ["--bind", "127.0.0.1", "--save", "", "--appendonly", "no", "--loglevel", "warning", "--repl-diskless-sync-delay", "0"]
    const primaryDir = join(root, "primary")
    const replicaDir = join(root, "replica")
    const { mkdirSync } = await import("node:fs")
    mkdirSync(primaryDir)
    mkdirSync(replicaDir)
    // Both may be restarted as the other's replica; each replicates the current primary, told by the Sentinels.
    servers.push(serverProcess(kind, primaryPort, primaryDir, ["--port", String(primaryPort), "--dir", primaryDir, ...common]))
    servers.push(serverProcess(kind, replicaPort, replicaDir, ["--port", String(replicaPort), "--dir", replicaDir, "--replicaof", "127.0.0.1", String(primaryPort), ...common]))
    await Promise.all(servers.map((server) => server.start()))
    await until(async () => /slave0:.*state=online/.test(await cli(kind, primaryPort, "INFO", "replication")), "the replica to sync")
    for (let i = 0; i < 3; i++) {
      const port = await freePort()
      const dir = join(root, `sentinel-${i}`)
      mkdirSync(dir)
      const conf = join(dir, "sentinel.conf")
      writeFileSync(
        conf,
        [
          `port ${port}`,
          "bind 127.0.0.1",
          `dir ${dir}`,
          `sentinel monitor ${name} 127.0.0.1 ${primaryPort} 2`,
          `sentinel down-after-milliseconds ${name} 1000`,
          `sentinel failover-timeout ${name} 10000`,
          `sentinel parallel-syncs ${name} 1`,
          "",
        ].join("\n"),
      )
      servers.push(serverProcess(kind, port, dir, [conf, "--sentinel", "--loglevel", "warning"]))
    }
    await Promise.all(servers.slice(2).map((server) => server.start()))
    // Every Sentinel knows the replica and the other two Sentinels before anything is killed.
    await until(
      async () =>
        (
          await Promise.all(
            servers.slice(2).map(async (sentinel) => {
              const info = await cli(kind, sentinel.port, "SENTINEL", "MASTER", name)
              const field = (key: string) => Number(info.split("\n")[info.split("\n").indexOf(key) + 1])
              return field("num-slaves") >= 1 && field("num-other-sentinels") >= 2
            }),
          )
        ).every(Boolean),
      "the Sentinels to find the replica and each other",
    )
  } catch (error) {
    await closeAll(servers, root)
    throw error
  }
  const sentinels = servers.slice(2)
  return {
    kind,
    name,
    servers,
    sentinels: sentinels.map((server) => ({ host: "127.0.0.1", port: server.port })),
    async primaryPort() {
      const answers = await Promise.all(sentinels.filter((server) => server.alive()).map((server) => cli(kind, server.port, "SENTINEL", "GET-MASTER-ADDR-BY-NAME", name).catch(() => "")))
      const ports = answers.map((answer) => Number(answer.split("\n")[1]))
      const agreed = ports.find((port) => ports.filter((other) => other === port).length >= 2)
      if (!agreed) throw new Error("the Sentinels do not agree on a primary")
      return agreed
    },
    server: (port) => servers.find((server) => server.port === port)!,
    close: () => closeAll(servers, root),
  }
}
