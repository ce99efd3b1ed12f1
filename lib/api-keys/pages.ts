/**
 * The API keys' page (lib/pages/capability-page.ts): the one that shows a new key once, after a
 * form made it (actions/page.ts). The account and organization pages draw the keys' section from
 * views/partials/api-keys-section.ejs, with the data of page-section.ts.
 */
import { capabilityPage } from "../pages/capability-page.js"

export const API_KEY_CREATED_PAGE = capabilityPage(import.meta.url, "api-key-created", "apiKeys.created.title")
