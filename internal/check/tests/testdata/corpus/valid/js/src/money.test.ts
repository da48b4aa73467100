import { describe, expect, it, test, vi } from 'vitest'
import { formatMoney, parseMoney } from './money'

describe('parseMoney', () => {
  it('reads whole amounts', () => {
    expect(parseMoney('12 EUR')).toEqual({ amount: 12, currency: 'EUR' })
  })

  it.each([
    ['1.5 USD', 1.5],
    ['0.05 EUR', 0.05],
  ])('reads %s', (input, amount) => {
    expect(parseMoney(input).amount).toBe(amount)
  })

  test.each`
    input       | ok
    ${'1 EUR'}  | ${true}
    ${'1 GBP'}  | ${false}
  `('accepts $input: $ok', ({ input, ok }) => {
    const run = () => parseMoney(input)
    if (ok) expect(run).not.toThrow()
    else expect(run).toThrow(/not money/)
  })

  // a regex literal with a quote and a slash in a class must not derail the tokenizer
  it('rejects malformed input', () => {
    const bad = [/['"]/, /[/]/, `template ${'with'} ${`nested ${1}`}`]
    for (const b of bad) {
      expect(() => parseMoney(String(b))).toThrowError()
    }
  })

  it.todo('reads amounts with thousands separators')

  // flaky on the CI's clock until the rounding fix lands (#412)
  it.skip('rounds half to even', () => {
    expect(parseMoney('0.125 EUR').amount).toBe(0.12)
  })
})

test('formatMoney pads cents', async () => {
  const spy = vi.fn(formatMoney)
  await Promise.resolve()
  expect(spy({ amount: 3, currency: 'USD' })).toBe('3.00 USD')
  expect(spy).toHaveBeenCalledTimes(1)
})

test('formatMoney type', () => {
  // @ts-expect-error a Money needs a currency
  formatMoney({ amount: 1 })
})
