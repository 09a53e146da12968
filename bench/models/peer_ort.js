#!/usr/bin/env node
// peer_ort.js - ONNX Runtime's side of the model benchmark (bench/models/run.sh).
//
//     node peer_ort.js MODEL.onnx BATCH ITERATIONS WARMUP [--threads N] [--dump FILE] [--input-shape DIMS]
//                      [--min-time MS] [--profile PREFIX]
//
// ONNX Runtime's CPU build from the npm package onnxruntime-node (a prebuilt libonnxruntime inside; installed
// by scripts/install-deps.sh --bench). It is found through Node's module path: run.sh sets NODE_PATH to the
// node_modules directory of the install (see docs/performance.md, "Models").
//
// The same protocol as peer_common.py (the Python peers) and bench_model.c: the arguments, the input pattern
// (element i is (i * 7919 % 2001) / 1000 - 1 in float32, exactly; [BATCH, DIMS], DIMS the input's dimensions
// after the batch, default 3,224,224: run.sh passes the model's), one execution timed as first_ms, WARMUP untimed, ITERATIONS timed, one JSON line.
// The session: intraOpNumThreads = N, interOpNumThreads = 1, sequential execution, graph optimisation level
// "all", the CPU execution provider only. load_ms covers InferenceSession.create (reading the file, graph
// optimisation, kernel set-up). peak_rss_kib is the process's ru_maxrss (process.resourceUsage().maxRSS,
// KiB, as getrusage gives it), base_rss_kib the same before the load: Node itself is about 45 MiB.
// --profile PREFIX turns on ONNX Runtime's own profiler: every node's time in every run goes to
// PREFIX_<date>.json (Chrome trace events), which bench/models/layers.py lines up with openacl's profile.
'use strict';

const fs = require('fs');

const prog = 'peer_ort';

function fail(msg) {
  process.stderr.write(`${prog}: ${msg}\n`);
  process.exit(1);
}

function usage(msg) {
  process.stderr.write(`usage: ${prog} MODEL.onnx BATCH ITERATIONS WARMUP [--threads N] [--dump FILE] [--input-shape DIMS] [--min-time MS] [--profile PREFIX]\n`);
  fail(msg);
}

function parseArgs(argv) {
  const a = { threads: 2, dump: null, inputShape: [3, 224, 224], minTime: 0 };
  const pos = [];
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === '--threads' && i + 1 < argv.length) a.threads = Number(argv[++i]);
    else if (argv[i] === '--dump' && i + 1 < argv.length) a.dump = argv[++i];
    else if (argv[i] === '--input-shape' && i + 1 < argv.length) a.inputShape = argv[++i].split(',').map(Number);
    else if (argv[i] === '--min-time' && i + 1 < argv.length) a.minTime = Number(argv[++i]);
    else if (argv[i] === '--profile' && i + 1 < argv.length) a.profile = argv[++i];
    else if (argv[i].startsWith('--')) usage(`unknown option '${argv[i]}'`);
    else pos.push(argv[i]);
  }
  if (pos.length !== 4) usage('expected 4 positional arguments');
  [a.model, a.batch, a.iterations, a.warmup] = [pos[0], Number(pos[1]), Number(pos[2]), Number(pos[3])];
  const int = (v) => Number.isInteger(v);
  if (!(a.minTime >= 0)) usage('--min-time takes milliseconds >= 0');
  if (!int(a.batch) || !int(a.iterations) || !int(a.warmup) || !int(a.threads) ||
      a.batch < 1 || a.iterations < 1 || a.warmup < 0 || a.threads < 1)
    usage('BATCH, ITERATIONS and --threads must be >= 1, WARMUP >= 0');
  if (!a.inputShape.every((d) => Number.isInteger(d) && d >= 1))
    usage('--input-shape takes positive integers separated by commas, e.g. 3,224,224');
  return a;
}

// [batch, ...dims]: element i is (i * 7919 % 2001) / 1000 - 1 in float32, as peer_common.input_array.
function inputArray(batch, dims) {
  const shape = [batch, ...dims];
  const n = shape.reduce((x, y) => x * y, 1);
  const x = new Float32Array(n);
  // (i * 7919) % 2001 computed exactly: i * 7919 stays below 2^53 for any input this benchmark feeds
  for (let i = 0; i < n; i++) x[i] = Math.fround(Math.fround((i * 7919) % 2001) / 1000) - 1;
  return { data: x, shape };
}

const nowMs = () => Number(process.hrtime.bigint()) / 1e6;
const cpuMs = () => { const u = process.cpuUsage(); return (u.user + u.system) / 1e3; };
const peakRssKib = () => process.resourceUsage().maxRSS;
const round3 = (v) => Math.round(v * 1e3) / 1e3;
const median = (v) => {
  const s = [...v].sort((x, y) => x - y), m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};
// the 99th percentile, nearest rank, as bench_model.c: with fewer than 100 samples, the slowest
const p99 = (v) => {
  const s = [...v].sort((x, y) => x - y), r = Math.ceil(0.99 * s.length) - 1;
  return s[Math.min(Math.max(r, 0), s.length - 1)];
};

async function main() {
  const a = parseArgs(process.argv.slice(2));
  let ort;
  try {
    ort = require('onnxruntime-node');
  } catch (e) {
    fail(`cannot load onnxruntime-node (${e.message}); install it with scripts/install-deps.sh --bench ` +
         'and set NODE_PATH to its node_modules directory');
  }
  const baseRss = peakRssKib();
  let t0 = nowMs();
  let session;
  try {
    session = await ort.InferenceSession.create(a.model, {
      executionProviders: ['cpu'],
      intraOpNumThreads: a.threads,
      interOpNumThreads: 1,
      executionMode: 'sequential',
      graphOptimizationLevel: 'all',
      ...(a.profile ? { enableProfiling: true, profileFilePrefix: a.profile } : {}),
    });
  } catch (e) {
    fail(`InferenceSession.create('${a.model}') failed: ${e.message}`);
  }
  const loadMs = nowMs() - t0;
  const inName = session.inputNames[0], outName = session.outputNames[0];
  const x = inputArray(a.batch, a.inputShape);
  const feeds = { [inName]: new ort.Tensor('float32', x.data, x.shape) };
  const run = async () => (await session.run(feeds))[outName];

  let out;
  t0 = nowMs();
  try {
    out = await run();
  } catch (e) {
    fail(`run() of '${a.model}' at batch ${a.batch} failed: ${e.message}`);
  }
  const first = nowMs() - t0;
  for (let i = 0; i < a.warmup; i++) await run();
  const lat = [];
  const cpu0 = cpuMs(), wall0 = nowMs();
  // as bench_model.c: ITERATIONS, and more until --min-time milliseconds were timed
  while (lat.length < a.iterations || nowMs() - wall0 < a.minTime) {
    t0 = nowMs();
    out = await run();
    lat.push(nowMs() - t0);
  }
  const coresBusy = (cpuMs() - cpu0) / (nowMs() - wall0);
  if (a.profile) session.endProfiling();
  if (a.dump) {
    const d = out.data;
    fs.writeFileSync(a.dump, Buffer.from(d.buffer, d.byteOffset, d.byteLength));
  }
  process.stdout.write(JSON.stringify({
    side: 'ort', model: a.model, batch: a.batch, threads: a.threads,
    load_ms: round3(loadMs), first_ms: round3(first),
    median_ms: round3(median(lat)), p99_ms: round3(p99(lat)), min_ms: round3(Math.min(...lat)),
    iters: lat.length, warmup: a.warmup, cores_busy: Math.round(coresBusy * 100) / 100,
    base_rss_kib: baseRss, peak_rss_kib: peakRssKib(),
    version: ort.env.versions ? ort.env.versions.common : undefined,
  }) + '\n');
}

main().catch((e) => fail(e.stack || String(e)));
