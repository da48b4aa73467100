SELECT * FROM customers WHERE status = 'active';
SELECT id, email FROM customers WHERE id = ? ORDER BY;
