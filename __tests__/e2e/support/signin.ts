/**
 * The identifier-first sign-in page's first step (issue #26), for browser tests whose subject is
 * what comes after it: the identifier typed in step one's only field, "Continue" pressed, and the
 * browser on step two (the methods that identifier can use).
 */
import type { Page } from "playwright-core"

/** Step one's field: its label is "Email or username", "Email" or "Username" as the methods take. */
export async function continueAs(page: Page, identifier: string, label = /^(Email or username|Email|Username)$/): Promise<void> {
  await page.getByLabel(label).fill(identifier)
  await Promise.all([page.waitForURL((url) => url.searchParams.get("login_hint") === identifier), page.getByRole("button", { name: "Continue", exact: true }).click()])
}
