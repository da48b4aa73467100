-- Reserved for the memstore branch (memory details); this placeholder only
-- keeps the numbering contiguous until it lands: on a merge, take its file.
SELECT 1;
