/**
 * The admin pages (lib/pages/capability-page.ts): the user list and one user's page, both wide
 * with the account page's header; their templates are in ./views, their titles in this folder's texts.
 */
import { capabilityPage } from "../pages/capability-page.js"

export const ADMIN_LIST_PAGE = capabilityPage(import.meta.url, "admin-list", "admin.page.title", { wide: true })
export const ADMIN_USER_PAGE = capabilityPage(import.meta.url, "admin-user", "admin.user.title", { wide: true })
