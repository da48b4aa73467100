-- Queries behind the dashboard.
SELECT * FROM orders WHERE account_id = $1;

SELECT o.id, o.total_cents
FROM orders o
WHERE o.status = 'paid'
UNION ALL
SELECT o.*, 0 FROM archived_orders o;

SELECT id, status FROM orders WHERE created_at > now() - interval '1 day' ORDER BY;
