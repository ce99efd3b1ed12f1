/** What follows every admin action (issue #30): the `admin` event, and so its audit record (audit.ts). */
import type { ResolvedConfig } from "../core/config/resolved.js"
import { fireEvent } from "../core/events.js"
import type { AdminEvent } from "./events.js"

/** Who acts: a signed-in admin, or null for the app's server code. */
export type Actor = { userId: string } | null

export async function adminChanged(config: ResolvedConfig, event: AdminEvent): Promise<void> {
  await fireEvent(config, "admin", event)
}
