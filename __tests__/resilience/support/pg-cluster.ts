/**
 * A private PostgreSQL cluster for fault runs (SECURITY-CATALOG.md §14): created with
 * `pg_createcluster` on a free port (trust authentication on loopback), stopped and started with
 * `pg_ctlcluster`, dropped with `pg_dropcluster --stop`. The shared cluster on 5432 is never
 * touched. Needs root (or the postgres user) and the Debian postgresql-common tools, as in CI.
 */
import { execFile } from "node:child_process"
import { randomBytes } from "node:crypto"
import { readdirSync } from "node:fs"
import { promisify } from "node:util"
import { freePort } from "../../helpers/ports.js"

const run = promisify(execFile)

export interface PgCluster {
  version: string
  name: string
  port: number
  /** `postgres://postgres@127.0.0.1:<port>/postgres` */
  url: string
  stop(): Promise<void>
  start(): Promise<void>
  drop(): Promise<void>
}

export { freePort }

/** The newest installed PostgreSQL major version (`/etc/postgresql/<ver>`). */
export function postgresVersion(): string {
  const versions = readdirSync("/etc/postgresql").filter((entry) => /^\d+$/.test(entry))
  if (!versions.length) throw new Error("no PostgreSQL version under /etc/postgresql")
  return versions.sort((a, b) => Number(b) - Number(a))[0]!
}

async function ctl(version: string, name: string, action: "start" | "stop"): Promise<void> {
  await run("pg_ctlcluster", ["--skip-systemctl-redirect", version, name, action], { timeout: 60_000 })
}

/** Creates and starts a private cluster `gh_fault_<random>`. */
export async function createCluster(): Promise<PgCluster> {
  const version = postgresVersion()
  const name = `gh_fault_${randomBytes(4).toString("hex")}`
  const port = await freePort()
  const drop = async () => {
    await run("pg_dropcluster", ["--stop", version, name], { timeout: 60_000 }).catch(() => undefined)
  }
  try {
    await run("pg_createcluster", [version, name, "--port", String(port), "--start", "--", "--auth-host=trust", "--auth-local=trust"], { timeout: 120_000 })
  } catch (error) {
    await drop()
    throw error
  }
  return {
    version,
    name,
    port,
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    stop: () => ctl(version, name, "stop"),
    start: () => ctl(version, name, "start"),
    drop,
  }
}
