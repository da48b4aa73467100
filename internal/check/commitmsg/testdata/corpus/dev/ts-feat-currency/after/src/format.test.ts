import { describe, expect, it } from "vitest";
import { formatCurrency } from "./format";

describe("formatCurrency", () => {
  it("formats euros in German", () => {
    expect(formatCurrency(1234.5, { currency: "EUR", locale: "de-DE" })).toBe("1.234,50 €");
  });
});
