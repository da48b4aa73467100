const assert = require('node:assert')
const { test } = require('node:test')
const { sleep } = require('./helpers')
const { fetchUser } = require('../src/api')

test('fetches a user', { only: true }, async () => {
  const user = await fetchUser(1)
  assert.equal(user.id, 1)
})

test('caches the user', async () => {
  await fetchUser(1)
  await sleep(1000)
  assert.ok(await fetchUser(1))
})

test('retries', { skip: true }, async () => {
  assert.ok(await fetchUser(2))
})

describe('in the browser', () => {
  it('shows the user', () => {
    cy.visit('/users/1')
    cy.wait(500)
    cy.contains('Ada')
  })
})
