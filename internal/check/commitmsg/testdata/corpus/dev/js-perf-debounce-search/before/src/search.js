import { fetchResults } from './api.js';

export function bindSearch(input, render) {
  input.addEventListener('input', async () => {
    render(await fetchResults(input.value));
  });
}
