// The battle mage in JavaScript, through ploy's WebAssembly build: the
// plan for Kill, and agents of every kind of domains/battlemage.yaml
// fighting in a tiny world written here, as a game would write it. The
// Node script (node.mjs) and the page (index.html) both run it.
//
// The world: each mage has an enemy who hurts it (2 health every 2, 3 or
// 4 frames, by the mage's number) until a bolt kills it, and a new one comes 15 frames later. The shrine's
// potion, once fetched, is back 40 frames later. The mage's actions take
// a few frames each (durations below), and the world changes as an action
// says a frame after the report (the example's choice: a change pushed
// in the same frame works too, since a reported success keeps its effects
// even when the agent drops the step before reading it). The world pushes
// what the mage
// would sense: its health (an input), healthy (60 or more), whether the
// enemy is dead and whether the shrine holds a potion; the agent keeps the
// other facts from its actions' effects.

/** How many frames each action of the battle mage takes in this world. */
export const durations = {
  Approach: 3, TakeCover: 2, Recharge: 2, CastBolt: 1,
  GetCrystals: 4, FetchPotion: 4, DrinkPotion: 1,
};

/**
 * Plans Kill from the file's start state through the JSON API.
 * @param {import('../../bindings/wasm/ploy.mjs').Ploy} p
 * @param {number} domain the battle mage's domain handle
 * @returns {{plan: string[], cost: number, expanded: number}}
 */
export function planKill(p, domain) {
  const answer = p.call(domain, 'plan', { goal: 'Kill' });
  return { plan: answer.plan, cost: answer.cost, expanded: answer.expanded };
}

/**
 * Runs perKind agents of each of the file's kinds for frames frames in
 * one world, and returns, for each kind, what its mages did.
 * @param {import('../../bindings/wasm/ploy.mjs').Ploy} p
 * @param {number} domain the battle mage's domain handle
 * @param {{perKind?: number, frames?: number}} [options]
 */
export function battle(p, domain, { perKind = 10, frames = 300 } = {}) {
  const world = p.worldNew(domain, 1);
  try {
    const mages = [];
    for (const kind of p.kinds(domain)) {
      for (let i = 1; i <= perKind; i++) {
        mages.push({
          kind, handle: p.agentNew(world, kind, `${kind}-${i}`), hurtEvery: 2 + i % 3,
          health: 100, lowest: 100, enemyAlive: true, enemyBack: 0, potion: true, potionBack: 0,
          running: null, left: 0, done: null, kills: 0, potions: 0, actions: 0, plans: 0,
        });
      }
    }
    let resolved = 0;
    for (let frame = 0; frame < frames; frame++) {
      for (const m of mages) sense(p, m, frame);
      resolved += p.worldFrame(world);
      for (const m of mages) act(p, m, frame);
      // An agent keeps its last 256 events: read them often enough.
      if (frame % 25 === 24 || frame === frames - 1) {
        for (const m of mages) countPlans(p, m);
      }
    }
    const kinds = {};
    for (const m of mages) {
      const k = kinds[m.kind] ??= { agents: 0, kills: 0, potions: 0, actions: 0, plans: 0, lowestHealth: 100 };
      k.agents++;
      k.kills += m.kills;
      k.potions += m.potions;
      k.actions += m.actions;
      k.plans += m.plans;
      k.lowestHealth = Math.min(k.lowestHealth, m.lowest);
    }
    return { frames, agents: mages.length, resolved, kinds };
  } finally {
    p.release(world); // its agents with it
  }
}

// countPlans reads the agent's events and counts its plans.
function countPlans(p, m) {
  const { events, dropped } = p.agentEvents(m.handle);
  if (dropped > 0) throw new Error(`${m.kind}: ${dropped} events dropped: read them more often`);
  for (const e of events) {
    if (e.kind === 'plan_made') m.plans++;
  }
}

// sense is the world's turn and the mage's sensors: the enemy strikes,
// comes back, the shrine refills, and the agent is told what changed (a
// call into WebAssembly costs tens of microseconds: push changes, not
// every value every frame).
function sense(p, m, frame) {
  if (m.enemyAlive && frame % m.hurtEvery === m.hurtEvery - 1) m.health = Math.max(1, m.health - 2);
  if (!m.enemyAlive && frame >= m.enemyBack) m.enemyAlive = true;
  if (!m.potion && frame >= m.potionBack) m.potion = true;
  m.lowest = Math.min(m.lowest, m.health);
  const seen = { health: m.health, healthy: m.health >= 60, enemy_dead: !m.enemyAlive, potion_at_shrine: m.potion };
  m.pushed ??= {};
  for (const [name, value] of Object.entries(seen)) {
    if (m.pushed[name] !== value) {
      p.agentSet(m.handle, name, value);
      m.pushed[name] = value;
    }
  }
}

// act is the mage's behaviours: run the action the agent names for its
// duration, then say it succeeded; the world changes as it says at the
// next frame's act.
function act(p, m, frame) {
  if (m.done) {
    land(m, m.done, frame);
    m.done = null;
  }
  const { name, doing } = p.agentAction(m.handle);
  if (doing !== 'acting') {
    m.running = null;
    return;
  }
  if (m.running !== name) {
    m.running = name;
    m.left = durations[name] ?? 1;
  }
  if (--m.left > 0) {
    p.agentReport(m.handle, 'running');
    return;
  }
  m.running = null;
  m.actions++;
  m.done = name;
  p.agentReport(m.handle, 'success');
}

// land changes the world as the action name says.
function land(m, name, frame) {
  switch (name) {
    case 'CastBolt':
      if (m.enemyAlive) {
        m.kills++;
        m.enemyAlive = false;
        m.enemyBack = frame + 15;
      }
      break;
    case 'FetchPotion':
      m.potion = false;
      m.potionBack = frame + 40;
      break;
    case 'DrinkPotion':
      m.potions++;
      m.health = 100;
      break;
  }
}
