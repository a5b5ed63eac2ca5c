// Drives ploy.wasm's site functions (bindings/wasm/site.go) in Node, as
// the static site's script does, and prints what came back as one JSON
// object for site_browser_test.go's TestSiteBuilt to check. Run as
// node site_node.js DIR, DIR holding ploy.wasm and wasm_exec.js.
'use strict';
const fs = require('fs');
const path = require('path');
const dir = process.argv[2];
require(path.join(dir, 'wasm_exec.js'));

// ask sends one request and gives {status, type, body, chunks}.
function ask(api, method, p, body, opts = {}) {
	return new Promise((resolve) => {
		const got = { status: 0, type: '', body: '', chunks: 0 };
		const parts = [];
		let cancelNow = false;
		const sink = {
			head(status, type) { got.status = status; got.type = type; },
			chunk(bytes) {
				if (opts.throwOnChunk) {
					resolve(got); // end never comes to a sink that threw
					throw new Error('the page is gone');
				}
				got.chunks++;
				parts.push(Buffer.from(bytes));
				// The work runs before siteStream returns, up to its first
				// wait: the first tick comes before id is known.
				if (opts.cancelAfterFirst && got.chunks === 1) cancelNow = true;
			},
			end(error) {
				got.body = Buffer.concat(parts).toString('utf8');
				if (error !== undefined) got.error = error;
				resolve(got);
			},
		};
		const bytes = body === null ? null : (body instanceof Uint8Array ? body : new TextEncoder().encode(body));
		const id = api.siteStream(method, p, body === null ? '' : 'application/json', bytes, sink);
		if (id instanceof Error) resolve({ thrown: id.message });
		if (cancelNow) api.siteCancel(id);
	});
}

(async () => {
	const go = new Go();
	const ready = new Promise((r) => { globalThis.ployWasmReady = r; });
	const { instance } = await WebAssembly.instantiate(fs.readFileSync(path.join(dir, 'ploy.wasm')), go.importObject);
	go.run(instance);
	await ready;
	const api = globalThis.ployWasm;
	const out = {};
	out.plan = await ask(api, 'POST', '/api/v1/plan', '{"goal": "Kill"}');
	out.resolve = await ask(api, 'POST', 'api/v1/resolve', '{"domain": "survivor.yaml", "goal": "Warm"}');
	out.domains = await ask(api, 'GET', '/api/v1/domains', null);
	out.unknown = await ask(api, 'POST', '/api/v1/nosuch', '{}');
	out.badJSON = await ask(api, 'POST', '/api/v1/plan', '{"goal": ');
	out.tooLarge = await ask(api, 'POST', '/api/v1/plan', new Uint8Array(3 << 20));
	out.badArgs = await ask(api, 'POST', 42, '{}');
	// A stream at 2 ticks a second, stopped after its first tick: it
	// ends, in well under the run's seconds.
	const started = Date.now();
	out.cancelled = await ask(api, 'POST', '/api/v1/live', '{"goal": "Kill", "ticks_per_second": 2}', { cancelAfterFirst: true });
	out.cancelledMs = Date.now() - started;
	// A sink that throws: the program lives on, and answers the next.
	out.throwing = await ask(api, 'POST', '/api/v1/plan', '{"goal": "Kill"}', { throwOnChunk: true });
	out.after = await ask(api, 'POST', '/api/v1/plan', '{"goal": "GetHealthy"}');
	// exit once the output is written: a pipe's writes are asynchronous.
	process.stdout.write(JSON.stringify(out), () => process.exit(0));
})().catch((e) => {
	console.error(e);
	process.exit(1);
});
