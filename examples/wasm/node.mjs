// The battle mage from Node through ploy's WebAssembly build: plans Kill,
// then runs ten agents of each of the file's kinds for 300 frames in the
// tiny world of battle.mjs. Build ploy.wasm and copy Go's wasm_exec.js
// into one directory, then run (docs/wasm.md):
//
//	GOOS=js GOARCH=wasm go build -o bindings/wasm/ploy.wasm ./bindings/wasm
//	cp "$(go env GOROOT)/lib/wasm/wasm_exec.js" bindings/wasm/
//	node examples/wasm/node.mjs [DIR]
//
// DIR holds ploy.wasm and wasm_exec.js (default: bindings/wasm, beside
// ploy.mjs). It prints the plan and a line per kind, and exits 1 on an
// error.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import * as ploy from '../../bindings/wasm/ploy.mjs';
import { battle, planKill } from './battle.mjs';

const dir = process.argv[2];
const p = await ploy.load(dir ? { wasm: join(dir, 'ploy.wasm'), goRuntime: join(dir, 'wasm_exec.js') } : {});
console.log(`ploy ${p.version()}`);

const source = await readFile(new URL('../../domains/battlemage.yaml', import.meta.url), 'utf8');
const mage = p.load(source, 'battlemage.yaml');

const kill = planKill(p, mage);
console.log(`plan Kill: ${kill.plan.join(' → ')} (cost ${kill.cost}, ${kill.expanded} states expanded)`);

const fight = battle(p, mage, { perKind: 10, frames: 300 });
console.log(`battle: ${fight.agents} agents for ${fight.frames} frames, ${fight.resolved} plans resolved`);
for (const [kind, k] of Object.entries(fight.kinds)) {
  console.log(`${kind}: ${k.agents} agents, ${k.kills} kills, ${k.potions} potions drunk, ${k.actions} actions, ${k.plans} plans, lowest health ${k.lowestHealth}`);
}
p.release(mage);
