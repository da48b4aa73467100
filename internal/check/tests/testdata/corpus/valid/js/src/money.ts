export type Currency = 'EUR' | 'USD'

export interface Money {
  amount: number
  currency: Currency
}

const pattern = /^(\d+)(?:\.(\d{1,2}))?\s*(EUR|USD)$/

export function parseMoney(text: string): Money {
  const m = pattern.exec(text.trim())
  if (!m) throw new Error(`not money: ${text}`)
  const cents = Number(m[1]) * 100 + Number((m[2] ?? '0').padEnd(2, '0'))
  return { amount: cents / 100, currency: m[3] as Currency }
}

export const formatMoney = (m: Money): string => `${m.amount.toFixed(2)} ${m.currency}`
