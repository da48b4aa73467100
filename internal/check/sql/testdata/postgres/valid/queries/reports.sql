-- Monthly revenue per plan, for the finance dashboard.
WITH monthly AS (
    SELECT a.plan,
           date_trunc('month', o.created_at) AS month,
           sum(o.total_cents)                AS revenue_cents,
           count(*)                          AS orders
    FROM orders o
    JOIN accounts a ON a.id = o.account_id
    WHERE o.created_at >= now() - interval '1 year'
      AND EXISTS (SELECT * FROM members m WHERE m.account_id = a.id AND m.role = 'owner')
    GROUP BY 1, 2
)
SELECT plan,
       month,
       revenue_cents,
       orders,
       revenue_cents - lag(revenue_cents) OVER (PARTITION BY plan ORDER BY month) AS change_cents
FROM monthly
ORDER BY month DESC, plan;

SELECT a.id, a.slug, jsonb_agg(jsonb_build_object('user', m.user_id, 'role', m.role)) FILTER (WHERE m.role <> 'member') AS admins
FROM accounts a
LEFT JOIN members m ON m.account_id = a.id
GROUP BY a.id
HAVING count(*) > :min_members;

SELECT id, tags[1:2] AS first_tags, payload->>'kind' AS kind, created_at::date
FROM audit_events
WHERE payload ? 'kind' AND action = ANY(:'actions'::text[]);
