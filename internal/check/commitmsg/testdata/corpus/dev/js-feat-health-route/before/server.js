const express = require('express');
const { listOrders } = require('./orders');

const app = express();
app.use(express.json());

app.get('/orders', async (req, res) => {
  res.json(await listOrders(req.query));
});

module.exports = app;
