#!/usr/bin/env node
// Drives `cairn serve` through the official MCP TypeScript SDK client
// (StdioClientTransport) and measures it: cold start (spawn until connected),
// the p50/p99 latency of get_current_task and create_new_task, the bytes each
// response takes on the wire and the server's peak RSS (VmHWM) and CPU time.
// It reports numbers and checks none.
//
//   node bench.mjs --bin /path/to/cairn --project /path/to/seeded/project
//
// The project (made by `go run ./bench/seed DIR`) is copied for every
// session, never written. Options may also come from the environment:
// CAIRN_BIN, CAIRN_BENCH_PROJECT, BENCH_CALLS (2000), BENCH_WARMUP (200),
// BENCH_STARTS (20); --json FILE also writes the numbers as JSON.

import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';

const { values: opts } = parseArgs({
  options: {
    bin: { type: 'string', default: process.env.CAIRN_BIN },
    project: { type: 'string', default: process.env.CAIRN_BENCH_PROJECT },
    calls: { type: 'string', default: process.env.BENCH_CALLS ?? '2000' },
    warmup: { type: 'string', default: process.env.BENCH_WARMUP ?? '200' },
    starts: { type: 'string', default: process.env.BENCH_STARTS ?? '20' },
    json: { type: 'string' },
  },
});
if (!opts.bin || !opts.project) {
  console.error('usage: node bench.mjs --bin CAIRN_BINARY --project SEEDED_PROJECT_DIR [--calls N] [--warmup N] [--starts N] [--json FILE]');
  process.exit(2);
}
const CALLS = Number(opts.calls);
const WARMUP = Number(opts.warmup);
const STARTS = Number(opts.starts);

const sdkVersion = JSON.parse(
  readFileSync(new URL('./node_modules/@modelcontextprotocol/sdk/package.json', import.meta.url)),
).version;

// A fresh copy of the seeded project.
const scratch = mkdtempSync(join(tmpdir(), 'cairn-bench-ts-'));
let copies = 0;
function cloneProject() {
  const dir = join(scratch, `p${copies++}`);
  cpSync(join(opts.project, '.cairn'), join(dir, '.cairn'), {
    recursive: true,
    filter: (src) => !src.endsWith('-shm'),
  });
  return dir;
}

const now = () => Number(process.hrtime.bigint()) / 1e3; // µs

// procStatus reads a kB field of /proc/PID/status, in MiB.
function procStatusMB(pid, field) {
  const m = readFileSync(`/proc/${pid}/status`, 'utf8').match(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm'));
  return m ? Number(m[1]) / 1024 : NaN;
}

// cpuMicros is the process's user+system CPU time so far, in µs.
const CLK_TCK = 100;
function cpuMicros(pid) {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return ((Number(f[11]) + Number(f[12])) * 1e6) / CLK_TCK; // fields 14 and 15 of stat
}

function percentile(sorted, p) {
  if (sorted.length === 0) return NaN;
  const rank = Math.ceil((sorted.length * p) / 100) - 1;
  return sorted[Math.min(Math.max(rank, 0), sorted.length - 1)];
}

// start spawns the server in dir and connects; it resolves once the client
// is initialized.
async function start(dir) {
  const transport = new StdioClientTransport({ command: opts.bin, args: ['serve'], cwd: dir, stderr: 'inherit' });
  const client = new Client({ name: 'cairn-bench-ts', version: '1' });
  const t0 = now();
  await client.connect(transport);
  const connectUs = now() - t0;
  // Count the bytes the server writes. _process is the transport's child
  // process (private API); a second 'data' listener does not disturb it.
  const counter = { bytes: 0 };
  transport._process?.stdout?.on('data', (chunk) => { counter.bytes += chunk.length; });
  return { client, transport, pid: transport.pid, connectUs, t0, counter };
}

async function call(s, name, args) {
  const res = await s.client.callTool({ name, arguments: args });
  if (res.isError) throw new Error(`${name}: tool error: ${JSON.stringify(res.content)}`);
  return res;
}

async function coldStart() {
  const dir = cloneProject();
  const connect = [];
  const first = [];
  let rss = 0;
  for (let i = 0; i < STARTS; i++) {
    const s = await start(dir);
    await call(s, 'get_current_task', {});
    first.push(now() - s.t0);
    connect.push(s.connectUs);
    rss = Math.max(rss, procStatusMB(s.pid, 'VmHWM'));
    await s.client.close();
  }
  connect.sort((a, b) => a - b);
  first.sort((a, b) => a - b);
  return { starts: STARTS, p50Ms: percentile(connect, 50) / 1e3, firstCallMs: percentile(first, 50) / 1e3, peakRssMB: rss };
}

async function latency(name, argsFor) {
  const s = await start(cloneProject());
  for (let i = 0; i < WARMUP; i++) await call(s, name, argsFor(-1 - i));
  const lat = new Array(CALLS);
  const bytes0 = s.counter.bytes;
  const cpu0 = cpuMicros(s.pid);
  for (let i = 0; i < CALLS; i++) {
    const t = now();
    await call(s, name, argsFor(i));
    lat[i] = now() - t;
  }
  const cpu = cpuMicros(s.pid) - cpu0;
  const bytes = s.counter.bytes - bytes0;
  const rss = procStatusMB(s.pid, 'VmHWM');
  await s.client.close();
  lat.sort((a, b) => a - b);
  return {
    calls: CALLS,
    p50Us: percentile(lat, 50),
    p99Us: percentile(lat, 99),
    respBytes: bytes / CALLS,
    serverCpuUs: cpu / CALLS,
    peakRssMB: rss,
  };
}

const results = { client: `@modelcontextprotocol/sdk ${sdkVersion} (node ${process.version})` };
try {
  results.coldStart = await coldStart();
  results.getCurrentTask = await latency('get_current_task', () => ({}));
  results.createNewTask = await latency('create_new_task', (i) => ({
    title: `Benchmark step ${i}`,
    body: 'Created by the end-to-end benchmark.',
  }));
} finally {
  rmSync(scratch, { recursive: true, force: true });
}

const f = (v, d = 0) => (Number.isFinite(v) ? v.toFixed(d) : '-');
const rows = [
  ['cold start p50 (spawn → connected)', `${f(results.coldStart.p50Ms, 2)} ms`, '≤ 10 ms'],
  ['  spawn → first get_current_task', `${f(results.coldStart.firstCallMs, 2)} ms`, ''],
  ['get_current_task p50', `${f(results.getCurrentTask.p50Us)} µs`, '≤ 300 µs'],
  ['get_current_task p99', `${f(results.getCurrentTask.p99Us)} µs`, ''],
  ['  response bytes / call', f(results.getCurrentTask.respBytes), ''],
  ['  server CPU / call', `${f(results.getCurrentTask.serverCpuUs)} µs`, ''],
  ['create_new_task p50', `${f(results.createNewTask.p50Us)} µs`, '≤ 500 µs'],
  ['create_new_task p99', `${f(results.createNewTask.p99Us)} µs`, ''],
  ['  response bytes / call', f(results.createNewTask.respBytes), ''],
  ['  server CPU / call', `${f(results.createNewTask.serverCpuUs)} µs`, ''],
  ['server peak RSS (VmHWM)', `${f(Math.max(results.getCurrentTask.peakRssMB, results.createNewTask.peakRssMB), 1)} MB`, '≤ 30 MB'],
];
console.log(`TypeScript client: ${results.client}; ${STARTS} starts, ${WARMUP} warm-up + ${CALLS} timed calls per tool`);
const w0 = Math.max(...rows.map((r) => r[0].length));
const w1 = Math.max(...rows.map((r) => r[1].length));
for (const [k, v, t] of rows) console.log(`  ${k.padEnd(w0)}  ${v.padStart(w1)}  ${t}`);
if (opts.json) writeFileSync(opts.json, JSON.stringify(results, null, 2) + '\n');
