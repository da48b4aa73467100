const express = require('express');
const { listOrders } = require('./orders');
const { db } = require('./db');

const app = express();
app.use(express.json());

app.get('/orders', async (req, res) => {
  res.json(await listOrders(req.query));
});

app.get('/healthz', async (req, res) => {
  try {
    await db.query('select 1');
    res.json({ status: 'ok', uptime: process.uptime() });
  } catch (err) {
    res.status(503).json({ status: 'unavailable', error: err.message });
  }
});

module.exports = app;
