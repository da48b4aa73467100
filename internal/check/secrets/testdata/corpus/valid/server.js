const express = require('express');
const jwt = require('jsonwebtoken');

const app = express();
const secret = process.env.JWT_SECRET;
const apiKey = req => req.get('X-Api-Key');

app.post('/login', (req, res) => {
  const { user, password } = req.body;
  const token = jwt.sign({ sub: user }, secret, { expiresIn: '15m' });
  res.json({ token, tokenType: 'Bearer' });
});

app.listen(process.env.PORT || 3000);
