import { request } from './http.js';

export class Client {
  constructor(baseURL, token) {
    this.baseURL = baseURL;
    this.token = token;
  }

  async get(path) {
    return request(this.baseURL + path, { headers: { Authorization: `Bearer ${this.token}` } });
  }
}

export function createClient(baseURL, token) {
  return new Client(baseURL, token);
}
