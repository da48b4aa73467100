import { fetchResults } from './api.js';

function debounce(fn, ms) {
  let t;
  return (...args) => {
    clearTimeout(t);
    t = setTimeout(() => fn(...args), ms);
  };
}

export function bindSearch(input, render) {
  // One request per pause in typing instead of one per keystroke.
  input.addEventListener('input', debounce(async () => {
    render(await fetchResults(input.value));
  }, 250));
}
