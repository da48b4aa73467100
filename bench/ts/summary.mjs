#!/usr/bin/env node
// Prints the Go-client and TypeScript-client numbers side by side with the
// targets: node summary.mjs GO_BENCH_OUTPUT TS_JSON

import { readFileSync } from 'node:fs';

const [goFile, tsFile] = process.argv.slice(2);
if (!goFile || !tsFile) {
  console.error('usage: node summary.mjs GO_BENCH_OUTPUT TS_JSON');
  process.exit(2);
}

// go[benchmark][unit] = value, from lines like
// BenchmarkGetCurrentTask-2  2000  946152 ns/op  856.0 p50-µs ...
const go = {};
for (const line of readFileSync(goFile, 'utf8').split('\n')) {
  const m = line.match(/^Benchmark(\w+)(?:-\d+)?\s+\d+\s+(.*)$/);
  if (!m) continue;
  const fields = m[2].trim().split(/\s+/);
  const units = (go[m[1]] = {});
  for (let i = 0; i + 1 < fields.length; i += 2) units[fields[i + 1]] = Number(fields[i]);
}
const ts = JSON.parse(readFileSync(tsFile, 'utf8'));

const f = (v, d = 0) => (Number.isFinite(v) ? v.toFixed(d) : '-');
const g = (bench, unit) => go[bench]?.[unit];
const rows = [
  ['metric', 'Go client', 'TS client', 'target'],
  ['cold start p50, spawn → connected (ms)', f(g('ColdStart', 'p50-ms'), 2), f(ts.coldStart?.p50Ms, 2), '≤ 10'],
  ['  spawn → first get_current_task (ms)', f(g('ColdStart', 'first-call-ms'), 2), f(ts.coldStart?.firstCallMs, 2), ''],
  ['get_current_task p50 (µs)', f(g('GetCurrentTask', 'p50-µs')), f(ts.getCurrentTask?.p50Us), '≤ 300'],
  ['get_current_task p99 (µs)', f(g('GetCurrentTask', 'p99-µs')), f(ts.getCurrentTask?.p99Us), ''],
  ['  response bytes / call', f(g('GetCurrentTask', 'resp-B/op')), f(ts.getCurrentTask?.respBytes), ''],
  ['  server CPU / call (µs)', f(g('GetCurrentTask', 'server-CPU-µs/op')), f(ts.getCurrentTask?.serverCpuUs), ''],
  ['create_new_task p50 (µs)', f(g('CreateNewTask', 'p50-µs')), f(ts.createNewTask?.p50Us), '≤ 500'],
  ['create_new_task p99 (µs)', f(g('CreateNewTask', 'p99-µs')), f(ts.createNewTask?.p99Us), ''],
  ['  response bytes / call', f(g('CreateNewTask', 'resp-B/op')), f(ts.createNewTask?.respBytes), ''],
  ['  server CPU / call (µs)', f(g('CreateNewTask', 'server-CPU-µs/op')), f(ts.createNewTask?.serverCpuUs), ''],
  [
    'server peak RSS, VmHWM (MB)',
    f(Math.max(g('GetCurrentTask', 'peak-RSS-MB') ?? NaN, g('CreateNewTask', 'peak-RSS-MB') ?? NaN), 1),
    f(Math.max(ts.getCurrentTask?.peakRssMB ?? NaN, ts.createNewTask?.peakRssMB ?? NaN), 1),
    '≤ 30',
  ],
  // The plan toolset, Go client only.
  ['create_task p50, 1,000-task workload (µs)', f(g('PlanWorkload', 'create-p50-µs')), '-', '≤ 500'],
  ['get_tasks page p50 / query_tasks p50 (µs)', `${f(g('PlanWorkload', 'list-p50-µs'))} / ${f(g('PlanWorkload', 'query-p50-µs'))}`, '-', ''],
  ['get_next_task p50, 1,000 tasks (µs)', f(g('PlanWorkload', 'next-p50-µs')), '-', ''],
  ['  after a write (µs)', f(g('PlanWorkload', 'next-after-write-p50-µs')), '-', ''],
  ['get_next_task p50, 10,000 tasks (µs)', f(g('PlanNextTask', 'next-p50-µs')), '-', '≤ 1000'],
  ['get_next_task p99, 10,000 tasks (µs)', f(g('PlanNextTask', 'next-p99-µs')), '-', ''],
  ['  after a write, p50 (µs)', f(g('PlanNextTask', 'next-miss-p50-µs')), '-', ''],
  [
    'get_tasks page of 20: text B / tokens',
    `${f(g('PlanWorkload', 'page-text-B'))} / ${f(g('PlanWorkload', 'page-text-tok'))}`,
    '-',
    '',
  ],
  [
    '  structuredContent B / tokens',
    `${f(g('PlanWorkload', 'page-struct-B'))} / ${f(g('PlanWorkload', 'page-struct-tok'))}`,
    '-',
    '',
  ],
];
const w = rows[0].map((_, i) => Math.max(...rows.map((r) => r[i].length)));
for (const [i, r] of rows.entries()) {
  console.log(r.map((c, j) => (j === 0 ? c.padEnd(w[j]) : c.padStart(w[j]))).join('  '));
  if (i === 0) console.log(w.map((n) => '-'.repeat(n)).join('  '));
}
