/**
 * What the diagnostics page would find, logged once as a warning (issue #26), so an app learns of
 * a proxy or mount mismatch without knowing the page exists. Each configuration checks the first
 * request of each kind it serves (secure or not, forwarded headers sent or not, on AUTH_URL's
 * host or not, mount path): after that a request costs three header reads and a Set lookup, and
 * after `MAX_KINDS` kinds nothing at all. Each finding is logged once per configuration
 * (`warnOnce`), with this request's details (both paths, the headers seen) and the fix.
 */
import type { RequestContext } from "../core/context.js"
import type { ResolvedConfig } from "../core/config/resolved.js"
import { WARNINGS, type WarningCode } from "../warnings.js"
import { findProblems } from "./diagnostics-problems.js"
import { mountPathOf, requestFacts } from "./diagnostics-facts.js"

/**
 * Findings not logged from here: the resolver already warns of them at start-up under its own
 * code (`dev-secret-generated`, `env-url-basepath-mismatch`), start-up refuses them in production
 * (`untrusted-host`), or they describe a development default only (`trusthost-development-only`).
 */
const NOT_LOGGED = new Set(["dev-secret-generated", "auth-url-path-mismatch", "untrusted-host", "trusthost-development-only"])

/** Request kinds checked per configuration; more (hosts an attacker makes up) are not looked at. */
const MAX_KINDS = 32

const checked = new WeakMap<ResolvedConfig, Set<string>>()

function kindOf(ctx: RequestContext): string {
  const { request, config } = ctx
  // With AUTH_URL, request.origin is AUTH_URL's: the Host header tells which address was opened.
  const onAuthUrl = config.authUrl ? request.header("host") === config.authUrl.host : null
  return `${request.secure}|${Boolean(request.header("x-forwarded-proto"))}|${Boolean(request.header("x-forwarded-host"))}|${onAuthUrl}|${mountPathOf(ctx) ?? ""}`
}

const isWarningCode = (code: string): code is WarningCode => Object.hasOwn(WARNINGS, code)

export function watchDiagnostics(ctx: RequestContext): void {
  let kinds = checked.get(ctx.config)
  if (!kinds) checked.set(ctx.config, (kinds = new Set()))
  if (kinds.size >= MAX_KINDS) return
  const kind = kindOf(ctx)
  if (kinds.has(kind)) return
  kinds.add(kind)
  try {
    for (const problem of findProblems(requestFacts(ctx))) {
      if (NOT_LOGGED.has(problem.code) || !isWarningCode(problem.code)) continue
      ctx.config.warnOnce(problem.code, `${problem.problem} Fix: ${problem.fix}`)
    }
  } catch {
    // A check that cannot read this request is no reason to fail it.
  }
}
