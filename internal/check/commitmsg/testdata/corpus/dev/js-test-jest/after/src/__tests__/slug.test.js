import { slug } from '../slug';

describe('slug', () => {
  it('lower-cases and dashes words', () => {
    expect(slug('Hello World')).toBe('hello-world');
  });
  it('trims leading and trailing separators', () => {
    expect(slug('  --Hi!--  ')).toBe('hi');
  });
});
