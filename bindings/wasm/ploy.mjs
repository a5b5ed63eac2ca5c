// ploy for JavaScript: the WebAssembly build of ploy (bindings/wasm) as an
// ES module, in the shape of the C library's API (docs/wasm.md).
//
//   import * as ploy from './ploy.mjs';
//   const p = await ploy.load();                   // ploy.wasm and wasm_exec.js beside this file
//   const mage = p.load(yamlText, 'battlemage.yaml');
//   p.call(mage, 'plan', {goal: 'Kill'});          // {status: 'found', plan: [...], cost: 7, ...}
//
// It works in Node (18 or later) and in browsers, and needs the two files
// a Go build makes: ploy.wasm (GOOS=js GOARCH=wasm go build -o ploy.wasm
// ./bindings/wasm) and Go's wasm_exec.js, from $(go env GOROOT)/lib/wasm/
// of the same Go that built ploy.wasm (the two must match).

/**
 * Statuses an engine reports for the action an agent runs (agentReport):
 * the C API's PLOY_RUNNING, PLOY_SUCCESS and PLOY_FAILURE.
 */
export const RUNNING = 0;
export const SUCCESS = 1;
export const FAILURE = 2;

/**
 * The error every function of the API throws: the message says what is
 * wrong (a domain file's errors with their file, line and column). An
 * error answer of call also has the API's `field` (the request's field
 * at fault, when there is one), `status` (the HTTP status `ploy serve`
 * would have sent) and `answer` (the whole error object).
 */
export class PloyError extends Error {
  /**
   * @param {string} message
   * @param {{field?: string, status?: number, answer?: object}} [details]
   */
  constructor(message, details = {}) {
    super(message);
    this.name = 'PloyError';
    if (details.field !== undefined) this.field = details.field;
    if (details.status !== undefined) this.status = details.status;
    if (details.answer !== undefined) this.answer = details.answer;
  }
}

/**
 * A handle: a domain, a world or an agent, as a Number (a whole number
 * below 2^53; handles are never reused, so a released one stays invalid).
 * @typedef {number} Handle
 */

/**
 * Where a file comes from: in Node a path or a file: URL; in a browser a
 * URL (relative ones against the page). ploy.wasm may also be given as
 * its bytes or as a compiled WebAssembly.Module.
 * @typedef {string | URL} Location
 */

/**
 * @typedef {object} LoadOptions
 * @property {Location | ArrayBuffer | ArrayBufferView | WebAssembly.Module} [wasm]
 *   ploy.wasm (default: ploy.wasm beside this module).
 * @property {Location | Function} [goRuntime] Go's wasm_exec.js, or the Go
 *   class it defines (default: globalThis.Go when a page has loaded
 *   wasm_exec.js already, else wasm_exec.js beside this module).
 */

let loading = null;

/**
 * Loads ploy.wasm and starts it. There is one ploy per page or process:
 * later calls return the same API, whatever their options. A load that
 * failed may be tried again.
 * @param {LoadOptions} [options]
 * @returns {Promise<Ploy>}
 */
export function load(options = {}) {
  if (!loading) {
    loading = start(options);
    loading.catch(() => { loading = null; });
  }
  return loading;
}

const inNode = typeof process === 'object' && process !== null &&
  typeof process.versions === 'object' && process.versions !== null && typeof process.versions.node === 'string';

async function start(options) {
  const Go = await goRuntime(options.goRuntime);
  const go = new Go();
  const instance = await instantiate(options.wasm, go.importObject);
  let exitCode = null;
  go.exit = (code) => { exitCode = code; };
  // main calls ployWasmReady once it has registered its functions.
  let ready;
  const isReady = new Promise((resolve) => { ready = resolve; });
  globalThis.ployWasmReady = () => ready(true);
  try {
    const exited = go.run(instance).then(() => false);
    if (!await Promise.race([isReady, exited])) {
      throw new PloyError(`ploy.wasm exited with code ${exitCode} before it was ready (its output, if any, is on the console)`);
    }
  } finally {
    delete globalThis.ployWasmReady;
  }
  if (typeof globalThis.ployWasm !== 'object' || globalThis.ployWasm === null) {
    throw new PloyError('ploy.wasm started but registered no functions on globalThis.ployWasm: is it ploy\'s build of ./bindings/wasm?');
  }
  return api(globalThis.ployWasm);
}

const goRuntimeHint = 'copy $(go env GOROOT)/lib/wasm/wasm_exec.js of the Go that built ploy.wasm beside ploy.mjs, or pass {goRuntime: where}';

async function goRuntime(option) {
  if (typeof option === 'function') return option;
  if (option == null && typeof globalThis.Go === 'function') return globalThis.Go;
  const where = option ?? new URL('./wasm_exec.js', import.meta.url);
  if (inNode) {
    const text = new TextDecoder().decode(await readFile(where, 'wasm_exec.js', goRuntimeHint));
    const vm = await import('node:vm');
    vm.runInThisContext(text, { filename: String(where) });
  } else if (typeof document === 'object' && document !== null) {
    const url = new URL(where, document.baseURI);
    await new Promise((resolve, reject) => {
      const script = document.createElement('script');
      script.src = url.href;
      script.onload = resolve;
      script.onerror = () => reject(new PloyError(`cannot load wasm_exec.js from ${url.href}: ${goRuntimeHint}`));
      document.head.append(script);
    });
  } else { // a worker
    const url = new URL(where, globalThis.location?.href);
    const text = await (await fetchOK(url, 'wasm_exec.js', goRuntimeHint)).text();
    (0, eval)(text);
  }
  if (typeof globalThis.Go !== 'function') {
    throw new PloyError(`${where} defined no Go class: it is not Go's wasm_exec.js (${goRuntimeHint})`);
  }
  return globalThis.Go;
}

const wasmHint = 'build it with GOOS=js GOARCH=wasm go build -o ploy.wasm ./bindings/wasm, or pass {wasm: where}';

async function instantiate(option, imports) {
  if (option instanceof WebAssembly.Module) return WebAssembly.instantiate(option, imports);
  if (option instanceof ArrayBuffer || ArrayBuffer.isView(option)) {
    return (await WebAssembly.instantiate(option, imports)).instance;
  }
  const where = option ?? new URL('./ploy.wasm', import.meta.url);
  if (inNode) {
    return (await WebAssembly.instantiate(await readFile(where, 'ploy.wasm', wasmHint), imports)).instance;
  }
  const base = typeof document === 'object' && document !== null ? document.baseURI : globalThis.location?.href;
  const response = await fetchOK(new URL(where, base), 'ploy.wasm', wasmHint);
  if (WebAssembly.instantiateStreaming && response.headers.get('Content-Type') === 'application/wasm') {
    return (await WebAssembly.instantiateStreaming(response, imports)).instance;
  }
  return (await WebAssembly.instantiate(await response.arrayBuffer(), imports)).instance;
}

async function readFile(where, what, hint) {
  const fs = await import('node:fs/promises');
  const path = typeof where === 'string' && where.startsWith('file:') ? new URL(where) : where;
  try {
    return await fs.readFile(path);
  } catch (e) {
    throw new PloyError(`cannot read ${what} at ${where}: ${e.message}; ${hint}`);
  }
}

async function fetchOK(url, what, hint) {
  let response;
  try {
    response = await fetch(url);
  } catch (e) {
    throw new PloyError(`cannot fetch ${what} from ${url.href}: ${e.message}; ${hint}`);
  }
  if (!response.ok) {
    throw new PloyError(`cannot fetch ${what} from ${url.href}: ${response.status} ${response.statusText}; ${hint}`);
  }
  return response;
}

// An error answer of the JSON API: its message, and the status `ploy
// serve` would have sent (answers that are not errors have none, or a
// string one such as a plan's "found").
function isErrorAnswer(answer) {
  return typeof answer === 'object' && answer !== null &&
    typeof answer.error === 'string' && typeof answer.status === 'number';
}

/**
 * @typedef {object} Ploy
 * The API, in the shape of the C library's (bindings/c/ploy.h). Every
 * function throws a PloyError when it fails; none returns an error value.
 *
 * @property {() => string} version ploy's version, as `ploy --version`.
 * @property {(source: string | Uint8Array, name?: string) => Handle} load
 *   Loads a domain file's YAML text (at most 8 MiB); name is the file's
 *   name in error messages. Its errors say file:line:column for each.
 * @property {(domain: string | Uint8Array, domainName: string, problem: string | Uint8Array, problemName: string) => Handle} loadPDDL
 *   Loads a PDDL domain and problem (at most 16 MiB each); call answers
 *   "plan" on it.
 * @property {(domain: Handle, method: string, request?: object | string) => object} call
 *   The JSON API of `ploy serve` (docs/api.md) for a loaded domain:
 *   method is an endpoint's name under /api/v1/ ("plan", "resolve",
 *   "htn", "explain", "trace", "graph", "lint", ...), request its body
 *   (an object, or its JSON text) without `domain` or `source`. Returns
 *   the answer, parsed; an error answer is thrown as a PloyError with its
 *   field, status and answer.
 * @property {(domain: Handle, method: string, request?: object | string) => string} callText
 *   call's answer as the API's JSON text, an error answer included (it is
 *   not thrown): byte for byte what `ploy serve` sends, with "status"
 *   added to an error object.
 * @property {(domain: Handle) => string[]} methods The methods call answers on domain.
 * @property {(domain: Handle) => string[]} kinds The agent kinds of the domain's
 *   file (its agents: section), in its order: what agentNew takes.
 * @property {(handle: Handle) => void} release Frees a domain, a world (its
 *   agents with it) or an agent. Releasing twice, or 0, does nothing.
 * @property {() => number} held How many handles are held (to look for a leak).
 *
 * @property {(domain: Handle, workers?: number) => Handle} worldNew
 *   A world for the domain's agent kinds. workers (1 to 64, default 1)
 *   are the plan queue's; WebAssembly runs them on one thread.
 * @property {(world: Handle, maxDecisions?: number, maxBytes?: number) => void} worldRecord
 *   Makes the world keep its agents' decisions (0: 10 000 decisions,
 *   64 MiB); call it before adding agents.
 * @property {(world: Handle) => number} worldFrame One frame: every agent
 *   ticks, then the queue resolves the plans asked for. Returns how many.
 * @property {(world: Handle, expansions: number) => void} worldSetSlice
 *   Slices each engine-model agent's search to at most expansions chains
 *   a frame, each GOAP search to expansions states and each HTN
 *   decomposition to expansions steps, from the next frame on: a search
 *   that reaches it goes on in the next frame and ends with the plan it
 *   would have found whole, so a frame spends at most 256 × expansions
 *   chains, states and steps. 0 (the default) runs searches whole; a
 *   negative slice throws.
 * @property {(world: Handle, share: number) => void} worldSetMinShare
 *   Wakes a worker only for at least share plans each, from the next
 *   frame on: a frame of n plans runs on at most n / share of the world's
 *   workers. The plans are the same whichever the share; 1 (the default)
 *   wakes every worker; a share below 1 throws.
 * @property {(world: Handle) => {slice: number, taken: number, ended: number, suspended: number, chains: number, states: number, steps: number, workers: number}} worldFrameStats
 *   What the last frame did: its slice, the searches it ran, those that
 *   ended and those suspended until the next frame, the chains its
 *   engine-model searches expanded, the states its GOAP searches did,
 *   the steps its HTN decompositions took and the workers it ran on.
 * @property {(world: Handle) => string} worldDecisions The recorded decisions
 *   as a decision recording (JSON Lines, docs/records.md), for `ploy why`
 *   and `ploy replay`.
 *
 * @property {(world: Handle, kind: string, name?: string) => Handle} agentNew
 *   Adds an agent of a kind of the file's agents: section ("" or no name:
 *   KIND-N).
 * @property {(agent: Handle, name: string, value: number | boolean) => void} agentSet
 *   What the engine's sensors see: a fact (true, false, or a number: not
 *   0 is true) or an input of a state-space file; a key (an integer) of an
 *   engine-model file. The agent reads it at its next tick.
 * @property {(agent: Handle, x: number, y: number) => void} agentSetPosition
 *   Where an engine-model file's agent stands.
 * @property {(agent: Handle, key: string, x: number, y: number, found?: boolean) => void} agentSetTarget
 *   Where the target key's thing is (found, default true), or that it is
 *   nowhere to be seen (found false).
 * @property {(agent: Handle) => {name: string, doing: 'idle' | 'acting' | 'walking'}} agentAction
 *   What the engine should do for the agent now: run the action name
 *   (acting, then report how it goes), walk to its target first (walking:
 *   agentDestination says where), or nothing (idle).
 * @property {(agent: Handle) => {x: number, y: number, walking: boolean}} agentDestination
 *   Where a walking agent is headed.
 * @property {(agent: Handle, status: number | 'running' | 'success' | 'failure') => void} agentReport
 *   How the action the agent runs goes (RUNNING, SUCCESS, FAILURE); for a
 *   walking agent, SUCCESS says it arrived and FAILURE that it cannot.
 * @property {(agent: Handle) => {events: object[], dropped: number}} agentEvents
 *   The agent's events since the last call (docs/agents.md), and how many
 *   were dropped past the 256 it keeps.
 * @property {(agent: Handle) => object} agentState The agent's goal, plan,
 *   step, action and beliefs: {name, kind, goal, plan, step, action,
 *   doing, facts and inputs, or keys and at}.
 * @property {(agent: Handle, on: boolean) => void} agentTraceDecisions
 *   Whether the world's recording says, for this agent, what each search
 *   turned down and why.
 */

function api(raw) {
  // Each raw function returns an Error in place of its value when it
  // fails (Go cannot throw into JavaScript): throw it here, so that the
  // stack is the caller's.
  const check = (v) => {
    if (v instanceof Error) throw new PloyError(v.message);
    return v;
  };
  const callText = (domain, method, request) => {
    let body = '';
    if (typeof request === 'string') {
      body = request;
    } else if (typeof request === 'object' && request !== null) {
      // JSON.stringify throws a TypeError of its own (a BigInt, a cycle):
      // every failure of the API is a PloyError.
      try {
        body = JSON.stringify(request);
      } catch (e) {
        throw new PloyError(`call: the request cannot be sent as JSON: ${e.message}`);
      }
    } else if (request !== undefined && request !== null) {
      throw new PloyError(`call: the request must be an object or its JSON text, not ${typeof request === 'number' ? String(request) : 'a ' + typeof request}`);
    }
    return check(raw.call(domain, method, body));
  };
  return Object.freeze({
    version: () => check(raw.version()),
    load: (source, name = '') => check(raw.load(source, name)),
    loadPDDL: (domain, domainName, problem, problemName) => check(raw.loadPDDL(domain, domainName, problem, problemName)),
    call(domain, method, request) {
      const answer = JSON.parse(callText(domain, method, request));
      if (isErrorAnswer(answer)) {
        throw new PloyError(answer.error, { field: answer.field, status: answer.status, answer });
      }
      return answer;
    },
    callText,
    methods: (domain) => check(raw.methods(domain)),
    kinds: (domain) => check(raw.kinds(domain)),
    release: (handle) => { check(raw.release(handle)); },
    held: () => check(raw.held()),

    worldNew: (domain, workers = 1) => check(raw.worldNew(domain, workers)),
    worldRecord: (world, maxDecisions = 0, maxBytes = 0) => { check(raw.worldRecord(world, maxDecisions, maxBytes)); },
    worldFrame: (world) => check(raw.worldFrame(world)),
    worldSetSlice: (world, expansions) => { check(raw.worldSetSlice(world, expansions)); },
    worldSetMinShare: (world, share) => { check(raw.worldSetMinShare(world, share)); },
    worldFrameStats: (world) => JSON.parse(check(raw.worldFrameStats(world))),
    worldDecisions: (world) => check(raw.worldDecisions(world)),

    agentNew: (world, kind, name = '') => check(raw.agentNew(world, kind, name)),
    agentSet: (agent, name, value) => { check(raw.agentSet(agent, name, value)); },
    agentSetPosition: (agent, x, y) => { check(raw.agentSetPosition(agent, x, y)); },
    agentSetTarget: (agent, key, x, y, found = true) => { check(raw.agentSetTarget(agent, key, x, y, found)); },
    agentAction: (agent) => check(raw.agentAction(agent)),
    agentDestination: (agent) => check(raw.agentDestination(agent)),
    agentReport: (agent, status) => { check(raw.agentReport(agent, status)); },
    agentEvents: (agent) => JSON.parse(check(raw.agentEvents(agent))),
    agentState: (agent) => JSON.parse(check(raw.agentState(agent))),
    agentTraceDecisions: (agent, on) => { check(raw.agentTraceDecisions(agent, on)); },
  });
}
