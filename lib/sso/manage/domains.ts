/**
 * `POST sso/domains/<add|verify|enforce|remove>` (issue #28; the CSRF token is checked by
 * actions/post.ts): an organization's admins (`organization:update`, a recent sign-in) claim an
 * email domain (the answer names the DNS TXT record to publish), verify it once the record is
 * published, turn SSO enforcement on or off for it (`enforce`), and remove it. The rules are
 * domain-rules.ts.
 */
import type { ResponseInternal } from "../../types.js"
import type { RequestContext } from "../../core/context.js"
import { UnknownAction } from "../../errors.js"
import { addDomain, removeDomain, setDomainEnforcement, verifyDomain } from "./domain-rules.js"
import { field, manage } from "./answer.js"

const VERBS = new Set(["add", "verify", "enforce", "remove"])

export async function domainAction(ctx: RequestContext, verb: string): Promise<ResponseInternal> {
  if (!VERBS.has(verb)) throw new UnknownAction(`No action at sso/domains/${verb}`)
  return manage(ctx, `domains/${verb}`, verb, async (actor) => {
    const organizationId = field(ctx, "organizationId")
    const domain = field(ctx, "domain")
    switch (verb) {
      case "add":
        return { organizationId, ...(await addDomain(ctx.config, organizationId, domain, actor)) }
      case "verify":
        return { organizationId, ...(await verifyDomain(ctx.config, organizationId, domain, actor)) }
      case "enforce":
        return { organizationId, ...(await setDomainEnforcement(ctx.config, organizationId, domain, field(ctx, "enforce"), actor)) }
      default:
        await removeDomain(ctx.config, organizationId, domain, actor)
        return { organizationId, removed: true }
    }
  })
}
