'use strict';
const fs = require('fs');
const express = require('express');

// Read once at start-up: blocking here is fine.
const config = JSON.parse(fs.readFileSync('config.json', 'utf8'));
const app = express();

app.get('/config', (req, res) => {
  res.json(config);
});

app.get('/users', async (req, res) => {
  const ids = String(req.query.ids || '').split(',');
  const users = await Promise.all(ids.map(id => loadUser(id)));
  res.json(users);
});

app.post('/upload', async (req, res) => {
  await fs.promises.writeFile(`uploads/${Date.now()}`, req.body);
  res.sendStatus(201);
});

async function copyAll(stream, out) {
  for await (const chunk of stream) {
    out.push(chunk);
  }
}

async function loadUser(id) {
  return { id };
}

app.listen(3000);
