/**
 * Which Express the integration suites run on: 5 for `npm test`, 4 for `npm run test:express4`
 * (GATEHOUSE_TEST_EXPRESS=4, `express` mapped to the `express4` alias), so a run that silently
 * fell back to the other version fails here.
 */
import { expect, test } from "@jest/globals"
import express from "express"

const expected = process.env.GATEHOUSE_TEST_EXPRESS ?? "5"

test(`the suites run on Express ${expected}`, () => {
  // Express 4 still exports the `query` middleware factory; Express 5 removed it.
  const major = typeof (express as unknown as { query?: unknown }).query === "function" ? "4" : "5"
  expect(major).toBe(expected)
})
