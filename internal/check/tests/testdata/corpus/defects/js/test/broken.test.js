describe('broken', () => {
  it('has an unclosed template', () => {
    expect(`abc ${1 + 1}).toBe('abc 2')
  })
})
