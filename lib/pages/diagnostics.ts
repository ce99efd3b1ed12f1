/**
 * The diagnostics page: `views/diagnostics.ejs` in the shared layout, through `pageResponse`
 * (same CSP without scripts, no-store, frame denial as every built-in page). Plain English: a
 * developer page, off in production.
 */
import type { ResponseInternal } from "../types.js"
import type { RequestContext } from "../core/context.js"
import type { DiagnosticsReport } from "../actions/diagnostics-report.js"
import { pageResponse } from "./page.js"

export function diagnosticsPage(ctx: Pick<RequestContext, "config">, report: DiagnosticsReport): ResponseInternal {
  return pageResponse(ctx, "diagnostics", "Gatehouse diagnostics", { report })
}
