'use strict'
const { expect } = require('chai')
const sinon = require('sinon')
const { Cart } = require('../src/cart')

describe('Cart', function () {
  let clock

  beforeEach(function () {
    clock = sinon.useFakeTimers()
  })

  afterEach(function () {
    clock.restore()
  })

  context('when empty', function () {
    it('has a zero total', function () {
      expect(new Cart().total()).to.equal(0)
    })
  })

  it('expires after an hour', function () {
    const cart = new Cart()
    clock.tick(60 * 60 * 1000)
    cart.should.have.property('expired', true)
  })

  it('calls back with the saved cart', function (done) {
    new Cart().save(done)
  })

  it('divides / and keeps regexes apart', function () {
    const ratio = 10 / 2 / 5
    const re = /a\/b/g
    assertSame(ratio, 1)
    expect('a/b'.replace(re, '')).to.equal('')
  })

  function assertSame(a, b) {
    if (a !== b) throw new Error(`${a} !== ${b}`)
  }
})
