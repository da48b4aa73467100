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

export function getWithCallback(client, path, cb) {
  client.get(path).then((r) => cb(null, r), (e) => cb(e));
}

export function createClient(baseURL, token) {
  return new Client(baseURL, token);
}
