// The Node half of BenchmarkNodePlanKill (bench_test.go): the cost of a
// plan through ploy.mjs's call, and of a call into WebAssembly that does
// nothing, each timed over many calls in a row, several runs.
//
//	node bench.mjs DIR BATTLEMAGE CALLS RUNS
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import * as ploy from '../ploy.mjs';

const [dir, battlemageFile, calls, runs] = process.argv.slice(2);
const n = Number(calls);
const p = await ploy.load({ wasm: join(dir, 'ploy.wasm'), goRuntime: join(dir, 'wasm_exec.js') });
const mage = p.load(readFileSync(battlemageFile, 'utf8'), 'battlemage.yaml');
const request = { goal: 'Kill' };

// time returns, for each run, the wall time and the process's CPU time
// (user and system, every thread's) per call, in nanoseconds: on a shared
// machine the CPU time is the steadier figure.
const time = (f) => {
  const out = { wall: [], cpu: [] };
  for (let r = 0; r < Number(runs); r++) {
    const cpu = process.cpuUsage();
    const start = process.hrtime.bigint();
    for (let i = 0; i < n; i++) f();
    out.wall.push(Number(process.hrtime.bigint() - start) / n);
    const used = process.cpuUsage(cpu);
    out.cpu.push((used.user + used.system) * 1000 / n);
  }
  return out;
};
// Warm up for three seconds: V8 compiles the module's hot functions
// again, optimised, while it runs, and the first runs are slower.
for (const until = Date.now() + 3000; Date.now() < until;) p.call(mage, 'plan', request);
const plan = time(() => p.call(mage, 'plan', request));
const planText = time(() => p.callText(mage, 'plan', '{"goal":"Kill"}'));
const held = time(() => p.held());
const cost = p.call(mage, 'plan', request).cost;
process.stdout.write(JSON.stringify({ cost, plan, planText, held }));
