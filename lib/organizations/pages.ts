/**
 * The organizations' pages (lib/pages/capability-page.ts): the organization page (wide, with the
 * account page's header and in-page navigation), the page for a user in no organization, and the
 * invitation page; their templates are in ./views, their titles in this folder's texts.
 */
import { capabilityPage } from "../pages/capability-page.js"

export const ORGANIZATION_PAGE = capabilityPage(import.meta.url, "organization", "organizations.page.title", { wide: true })
export const NO_ORGANIZATION_PAGE = capabilityPage(import.meta.url, "organization-none", "organizations.none.heading")
export const INVITATION_PAGE = capabilityPage(import.meta.url, "invitation", "organizations.invitation.heading")
