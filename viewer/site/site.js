// The static site's script (`ploy site`, docs/viewer.md). It loads
// ploy.wasm, ploy built for WebAssembly (bindings/wasm), and answers the
// figures' requests of the JSON API with it, in this page: every fetch of
// /api/v1/... goes to ployWasm.siteStream, which runs the same handler as
// `ploy serve`, instead of the network. The figures' scripts are those of
// `ploy serve`, unchanged. Loaded after wasm_exec.js (Go's, which defines
// Go) and before every other script.
'use strict';

(function () {
	const realFetch = window.fetch.bind(window);
	const status = document.getElementById('site-status');

	// say shows the site's state above the figures: loading, ready, or
	// why nothing can plan (data-state says which, for the tests). Parts
	// between backquotes are code.
	function say(state, text) {
		status.dataset.state = state;
		status.replaceChildren(...text.split('`').map((part, i) => {
			if (i % 2 === 0) return document.createTextNode(part);
			const code = document.createElement('code');
			code.textContent = part;
			return code;
		}));
	}

	// ploy is ployWasm once the program runs.
	const ploy = (async function load() {
		if (typeof Go !== 'function') throw new Error('wasm_exec.js did not load: it should be beside index.html');
		const started = performance.now();
		let r;
		try {
			r = await realFetch('ploy.wasm');
		} catch (e) {
			if (location.protocol !== 'file:') throw new Error('cannot fetch ploy.wasm: ' + e.message);
			// Chromium fetches no file:// address from a page opened from
			// a file, unless started with --allow-file-access-from-files.
			throw new Error('this page was opened from a file, and the browser does not let a page load ploy.wasm from a file: ' +
				'serve the directory with any static server, such as `python3 -m http.server` in it, and open its address, ' +
				'or run `ploy serve`');
		}
		if (!r.ok) throw new Error('ploy.wasm: ' + r.status + ' ' + r.statusText + ' (it should be beside index.html)');
		const size = Number(r.headers.get('Content-Length')) || 0;
		const go = new Go();
		// instantiateStreaming compiles while the file arrives, but only
		// when the host sends the type application/wasm.
		const wasm = (r.headers.get('Content-Type') || '').startsWith('application/wasm')
			? await WebAssembly.instantiateStreaming(r, go.importObject)
			: await WebAssembly.instantiate(await r.arrayBuffer(), go.importObject);
		const ready = new Promise((resolve) => { globalThis.ployWasmReady = resolve; });
		go.run(wasm.instance); // returns once main waits for calls
		await ready;
		if (!globalThis.ployWasm || typeof globalThis.ployWasm.siteStream !== 'function') {
			throw new Error('ploy.wasm has no siteStream: it is not the WebAssembly build of this version of ploy');
		}
		const ms = Math.round(performance.now() - started);
		say('ready', 'A static copy of `ploy serve`\'s page: ploy built for WebAssembly (`ploy.wasm`' +
			(size ? ', ' + (size / 1048576).toFixed(1) + ' MB' : '') + ', loaded in ' + ms + ' ms) answers every figure\'s ' +
			'requests here, in your browser, with no server.');
		return globalThis.ployWasm;
	})();
	ploy.catch((e) => {
		status.classList.add('site-failed');
		say('failed', 'The figures cannot plan: ' + e.message + '.');
	});

	function aborted() {
		return new DOMException('The request was aborted.', 'AbortError');
	}

	// answer asks ploy.wasm for method path with init's body, and gives
	// the Response a server would: its head as soon as the handler
	// flushes or ends, its body a stream of what it writes.
	async function answer(path, init) {
		const signal = init.signal;
		if (signal && signal.aborted) throw aborted();
		const api = await ploy;
		if (signal && signal.aborted) throw aborted();
		const method = (init.method || 'GET').toUpperCase();
		const type = new Headers(init.headers || {}).get('Content-Type') || '';
		const body = init.body === undefined || init.body === null ? null : new TextEncoder().encode(String(init.body));
		return new Promise((resolve, reject) => {
			let controller;
			let responded = false;
			let over = false; // ended, failed or aborted: nothing more is taken
			const stream = new ReadableStream({
				start(c) { controller = c; },
				cancel() {
					if (!over) api.siteCancel(id);
					over = true;
				},
			});
			const fail = (e) => {
				over = true;
				if (responded) controller.error(e);
				else reject(e);
			};
			const sink = {
				head(code, contentType) {
					if (over) return;
					responded = true;
					resolve(new Response(stream, { status: code, headers: { 'Content-Type': contentType } }));
				},
				chunk(bytes) {
					if (!over) controller.enqueue(bytes);
				},
				end(error) {
					if (over) return;
					if (error !== undefined) return fail(new TypeError(error));
					over = true;
					controller.close();
				},
			};
			const id = api.siteStream(method, path, type, body, sink);
			if (id instanceof Error) return fail(id);
			if (signal) {
				signal.addEventListener('abort', () => {
					if (over) return;
					api.siteCancel(id);
					fail(aborted());
				}, { once: true });
			}
		});
	}

	// The figures ask /api/v1/PATH (common.js's fetchAPI); anything else
	// goes to the network as before.
	window.fetch = function (input, init) {
		const url = typeof input === 'string' ? input : (input instanceof URL ? input.href : '');
		const m = /^\/?api\/v1\/(.*)$/.exec(url);
		if (!m) return realFetch(input, init);
		return answer('/api/v1/' + m[1], init || {});
	};
})();
