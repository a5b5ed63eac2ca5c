// The Node half of TestNode (wasm_test.go): it drives ploy.mjs over the
// ploy.wasm in DIR and prints what it saw as one JSON object, which the Go
// test checks against package host run natively. It asserts nothing
// itself, so that every check and its message are in one place.
//
//	node node_test.mjs DIR BATTLEMAGE SURVIVOR
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import * as ploy from '../ploy.mjs';

const [dir, battlemageFile, survivorFile] = process.argv.slice(2);
const out = {};

// A load that cannot find its files says where it looked, and a later
// load may still succeed.
try {
  await ploy.load({ wasm: join(dir, 'missing.wasm'), goRuntime: join(dir, 'wasm_exec.js') });
} catch (e) {
  out.missingWasm = describe(e);
}
const p = await ploy.load({ wasm: join(dir, 'ploy.wasm'), goRuntime: join(dir, 'wasm_exec.js') });
out.sameAgain = (await ploy.load()) === p;
out.version = p.version();
const heldAtStart = p.held();

const battlemage = readFileSync(battlemageFile, 'utf8');
const mage = p.load(battlemage, 'battlemage.yaml');
out.planText = p.callText(mage, 'plan', '{"goal":"Kill"}');
out.plan = p.call(mage, 'plan', { goal: 'Kill' });
out.kinds = p.kinds(mage);
out.methods = p.methods(mage);

// Every kind, driven as host_test.go's runEngine drives it: each action
// the agent asks for runs two frames, then succeeds.
out.events = {};
for (const kind of out.kinds) {
  const w = p.worldNew(mage, 1);
  const a = p.agentNew(w, kind, 'mage');
  const running = new Map();
  const events = [];
  for (let frame = 0; frame < 40; frame++) {
    p.worldFrame(w);
    const { doing } = p.agentAction(a);
    if (doing !== 'acting') {
      running.delete(a);
    } else {
      const n = (running.get(a) ?? 0) + 1;
      running.set(a, n >= 2 ? 0 : n);
      p.agentReport(a, n >= 2 ? ploy.SUCCESS : ploy.RUNNING);
    }
    events.push(...p.agentEvents(a).events);
  }
  out.events[kind] = events;
  p.release(w);
}

// A recording, as the flight recorder writes it.
{
  const w = p.worldNew(mage, 1);
  p.worldRecord(w);
  const a = p.agentNew(w, 'goap', 'recorded');
  p.agentTraceDecisions(a, true);
  for (let frame = 0; frame < 10; frame++) {
    p.worldFrame(w);
    if (p.agentAction(a).doing === 'acting') p.agentReport(a, 'success');
  }
  out.decisions = p.worldDecisions(w);
  out.recordedState = p.agentState(a);
  p.release(w);
}

// The survivor of host_test.go's TestResolverAgentWalks: an engine that
// walks it a unit a frame and pushes the keys its actions change; the
// southern wood pile vanishes while it walks there.
{
  const d = p.load(new TextEncoder().encode(readFileSync(survivorFile, 'utf8')), 'survivor.yaml');
  const w = p.worldNew(d, 2);
  const a = p.agentNew(w, 'survivor', 's');
  const keys = { warmth: 20, hunger: 70 };
  const push = (k, v) => { keys[k] = v; p.agentSet(a, k, v); };
  let at = [0, 0];
  let lost = false;
  let north = false;
  const events = [];
  for (let frame = 0; frame < 300 && keys.warmth < 50; frame++) {
    p.worldFrame(w);
    const { name, doing } = p.agentAction(a);
    if (doing === 'walking') {
      const to = p.agentDestination(a);
      if (name === 'GatherWoodSouth' && !lost) {
        lost = true;
        p.agentSetTarget(a, 'wood_south', 0, 0, false);
        continue;
      }
      north ||= name === 'GatherWoodNorth';
      const dx = to.x - at[0];
      const dy = to.y - at[1];
      const n = Math.max(1, Math.abs(dx) + Math.abs(dy));
      at = [at[0] + dx / n, at[1] + dy / n];
      p.agentSetPosition(a, at[0], at[1]);
    } else if (doing === 'acting') {
      switch (name) {
        case 'GatherWoodNorth': case 'GatherWoodSouth': push('has_wood', 1); break;
        case 'LightFire': push('fire_lit', true); push('has_wood', false); break;
        case 'WarmUp': push('warmth', keys.warmth + 10); break;
        case 'Forage': case 'Hunt': push('has_food', 1); break;
        case 'Eat': push('hunger', keys.hunger - 40); push('has_food', 0); break;
      }
      p.agentReport(a, 'success');
    }
    events.push(...p.agentEvents(a).events);
  }
  out.survivor = { lost, north, warmth: keys.warmth, events, state: p.agentState(a) };
  p.release(d);
  p.release(w);
}

// A camp of survivors run whole and sliced (worldSetSlice), as
// bindings/host's TestSlicedWorldMakesTheSamePlans runs it: each agent's
// plans (plan_made and no_plan events, their tick dropped), and each
// frame's plans made and worldFrameStats.
{
  const d = p.load(readFileSync(survivorFile, 'utf8'), 'survivor.yaml');
  const camp = (slice, frames) => {
    const w = p.worldNew(d, 2);
    if (slice > 0) {
      p.worldSetSlice(w, slice);
      p.worldSetMinShare(w, 1e6); // and on one of its two workers: no frame has a million plans
    }
    const agents = [];
    for (let i = 0; i < 300; i++) {
      const a = p.agentNew(w, i % 3 === 2 ? 'wounded' : 'survivor', `s${i}`);
      const s = { a, at: [i % 7 - 3, i % 5 - 2], warmth: 10 + i % 40, hunger: 40 + i % 55, plans: [] };
      p.agentSet(a, 'warmth', s.warmth);
      p.agentSet(a, 'hunger', s.hunger);
      p.agentSetPosition(a, s.at[0], s.at[1]);
      agents.push(s);
    }
    const stats = [];
    for (let f = 0; f < frames; f++) {
      const made = p.worldFrame(w);
      stats.push({ made, ...p.worldFrameStats(w) });
      for (const s of agents) {
        const { name, doing } = p.agentAction(s.a);
        if (doing === 'walking') {
          const to = p.agentDestination(s.a);
          const dx = to.x - s.at[0];
          const dy = to.y - s.at[1];
          const n = Math.max(1, Math.abs(dx) + Math.abs(dy));
          s.at = [s.at[0] + dx / n, s.at[1] + dy / n];
          p.agentSetPosition(s.a, s.at[0], s.at[1]);
        } else if (doing === 'acting') {
          switch (name) {
            case 'GatherWoodNorth': case 'GatherWoodSouth': p.agentSet(s.a, 'has_wood', 1); break;
            case 'LightFire': p.agentSet(s.a, 'fire_lit', 1); p.agentSet(s.a, 'has_wood', 0); break;
            case 'WarmUp': s.warmth += 10; p.agentSet(s.a, 'warmth', s.warmth); break;
            case 'Forage': case 'Hunt': p.agentSet(s.a, 'has_food', 1); break;
            case 'Eat': s.hunger = Math.max(0, s.hunger - 40); p.agentSet(s.a, 'hunger', s.hunger); p.agentSet(s.a, 'has_food', 0); break;
          }
          p.agentReport(s.a, 'success');
        }
        for (const { tick, ...e } of p.agentEvents(s.a).events) {
          if (e.kind === 'plan_made' || e.kind === 'no_plan') s.plans.push(JSON.stringify(e));
        }
      }
    }
    p.release(w);
    return { stats, plans: agents.map((s) => s.plans) };
  };
  out.sliced = { slice: 1, whole: camp(0, 150), sliced: camp(1, 450) };
  p.release(d);
}

// A PDDL domain and problem.
{
  const d = p.loadPDDL(
    '(define (domain lights) (:predicates (on ?x)) (:action flip :parameters (?x) :precondition (not (on ?x)) :effect (on ?x)))',
    'lights.pddl',
    '(define (problem two) (:domain lights) (:objects a b) (:init) (:goal (and (on a) (on b))))',
    'two.pddl');
  out.pddl = p.call(d, 'plan', {});
  p.release(d);
}

// Errors: each is thrown as a PloyError with a message saying what is
// wrong, and ploy goes on working after it.
const errors = {};
const tryIt = (label, f) => {
  try {
    const v = f();
    // A raw function returns its Error rather than throwing it.
    errors[label] = v instanceof Error ? { returnedError: v.message } : { returned: v ?? null };
  } catch (e) {
    errors[label] = describe(e);
  }
};
const w = p.worldNew(mage, 1);
const a = p.agentNew(w, 'goap', '');
tryIt('bad yaml', () => p.load('name: x\nfacts: [a]\nactions:\n  - name: A\n    effects: {b: true}\n    cost: 1\n', 'mine.yaml'));
tryIt('source a number', () => p.load(42, 'x.yaml'));
tryIt('source too large', () => p.load('#'.repeat(9 << 20), 'big.yaml'));
tryIt('bad pddl', () => p.loadPDDL('(define (domain d) (:predicates (p)) (:action a :parameters () :effect (p)))', 'd.pddl', '(define (problem p)', 'p.pddl'));
tryIt('unknown goal', () => p.call(mage, 'plan', { goal: 'Kil' }));
tryIt('unknown method', () => p.call(mage, 'walk', {}));
tryIt('malformed request', () => p.call(mage, 'plan', '{"goal":'));
tryIt('request too large', () => p.call(mage, 'plan', { goal: 'Kill', pad: 'x'.repeat(2 << 20) }));
tryIt('a source in the request', () => p.call(mage, 'plan', { goal: 'Kill', source: 'x' }));
tryIt('handle a string', () => p.call(String(mage), 'plan', {}));
tryIt('handle a fraction', () => p.agentAction(1.5));
tryIt('handle negative', () => p.release(-1));
tryIt('world of a world', () => p.worldNew(w, 1));
tryIt('no workers', () => p.worldNew(mage, 0));
tryIt('unknown kind', () => p.agentNew(w, 'gaop'));
tryIt('unknown fact', () => p.agentSet(a, 'in_rnge', 1));
tryIt('NaN', () => p.agentSet(a, 'health', NaN));
tryIt('value a string', () => p.agentSet(a, 'health', 'full'));
tryIt('report idle', () => p.agentReport(a, 'success'));
tryIt('report a bad status', () => p.agentReport(a, 'done'));
tryIt('report a bad number', () => p.agentReport(a, 7));
tryIt('position of a GOAP agent', () => p.agentSetPosition(a, 1, 2));
tryIt('found not a boolean', () => p.agentSetTarget(a, 'wood_south', 1, 2, 'yes'));
tryIt('record late', () => p.worldRecord(w));
tryIt('decisions unrecorded', () => p.worldDecisions(w));
tryIt('slice negative', () => p.worldSetSlice(w, -1));
tryIt('slice a fraction', () => p.worldSetSlice(w, 1.5));
tryIt('slice a string', () => p.worldSetSlice(w, '4'));
tryIt('slice of a domain', () => p.worldSetSlice(mage, 4));
tryIt('share zero', () => p.worldSetMinShare(w, 0));
tryIt('share a fraction', () => p.worldSetMinShare(w, 1.5));
tryIt('stats of a domain', () => p.worldFrameStats(mage));
tryIt('handle a BigInt', () => p.worldFrame(BigInt(w)));
const cycle = {};
cycle.self = cycle;
tryIt('request a cycle', () => p.call(mage, 'plan', cycle));
tryIt('request a BigInt', () => p.call(mage, 'plan', { goal: 1n }));
tryIt('request a function', () => p.call(mage, 'plan', () => ({ goal: 'Kill' })));
tryIt('raw too many arguments', () => globalThis.ployWasm.version(1));
p.release(w);
tryIt('agent of a released world', () => p.agentSet(a, 'in_range', 1));
p.release(mage);
p.release(mage); // twice: nothing
tryIt('released domain', () => p.call(mage, 'plan', { goal: 'Kill' }));
out.releasedText = p.callText(mage, 'plan', { goal: 'Kill' });
out.errors = errors;

// Still working, and every handle released.
const again = p.load(battlemage, 'battlemage.yaml');
out.planAfterErrors = p.call(again, 'plan', { goal: 'Kill' });
p.release(again);
out.leaked = p.held() - heldAtStart;

process.stdout.write(JSON.stringify(out));

function describe(e) {
  return {
    thrown: e?.name, message: e?.message, ployError: e instanceof ploy.PloyError, isError: e instanceof Error,
    field: e?.field, status: e?.status,
  };
}
