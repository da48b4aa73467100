import assert from 'node:assert/strict'
import { describe, it, test } from 'node:test'
import { setTimeout as delay } from 'node:timers/promises'

import { retry } from '../src/retry.mjs'

describe('retry', () => {
  it('returns the first success', async () => {
    let calls = 0
    const got = await retry(async () => {
      calls++
      if (calls < 2) throw new Error('not yet')
      return 'ok'
    })
    assert.equal(got, 'ok')
  })

  it('polls until ready', async () => {
    let ready = false
    queueMicrotask(() => { ready = true })
    while (!ready) {
      await delay(5) // polling, inside a loop
    }
    assert.ok(ready)
  })
})

test('subtests with the context', async (t) => {
  await t.test('one', () => {
    assert.strictEqual(1, 1)
  })
})

test('skipped on windows', { skip: process.platform === 'win32' && 'no symlinks there' }, () => {
  assert.ok(true)
})
