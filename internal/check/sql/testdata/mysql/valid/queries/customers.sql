SELECT c.id, c.email, COALESCE(c.name, '') AS name, COUNT(o.id) AS orders
FROM customers AS c
LEFT JOIN orders AS o ON o.customer_id = c.id
WHERE c.status = ? AND c.created_at >= ?
GROUP BY c.id
ORDER BY orders DESC
LIMIT 50;

INSERT INTO customers (email, name) VALUES (:email, :name)
ON DUPLICATE KEY UPDATE name = VALUES(name), updated_at = NOW();

UPDATE customers SET status = 'blocked' WHERE id = ? LIMIT 1;

SELECT id, JSON_EXTRACT(meta, '$.source') AS source,
       ROW_NUMBER() OVER (PARTITION BY customer_id ORDER BY id) AS n
FROM orders
WHERE EXISTS (SELECT * FROM customers WHERE customers.id = orders.customer_id);
