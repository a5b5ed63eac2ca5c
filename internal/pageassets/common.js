// The helpers every figure's script uses, defined once on window.ploy:
// loaded first (deferred scripts run in the page's order), frozen so that
// no figure changes them for the others. Plain JavaScript, no build step.
'use strict';

(function () {
	const svgNS = 'http://www.w3.org/2000/svg';

	// html makes an element of the page: html('li', 'hint', 'none yet').
	function html(name, cls, text) {
		const e = document.createElement(name);
		if (cls) e.className = cls;
		if (text !== undefined) e.textContent = text;
		return e;
	}

	// svg makes an SVG element with its attributes and text.
	function svg(name, attrs, text) {
		const e = document.createElementNS(svgNS, name);
		for (const [k, v] of Object.entries(attrs || {})) e.setAttribute(k, v);
		if (text !== undefined) e.textContent = text;
		return e;
	}

	// option is a select's option showing its value.
	function option(value, selected) {
		const o = html('option', '', value);
		o.value = value;
		if (selected) o.selected = true;
		return o;
	}

	// actionItem is a plan's step in a list: <li><span class="action">.
	function actionItem(name) {
		const li = html('li');
		li.append(html('span', 'action', name));
		return li;
	}

	// showError shows message in the element e, or hides e when there is
	// none.
	function showError(e, message) {
		e.hidden = !message;
		e.textContent = message || '';
	}

	// number writes a cost as the commands' text does (Go's
	// internal/costfmt, which a test holds to this): whole numbers bare,
	// others rounded to two decimals, trailing zeros dropped.
	function number(x) {
		// -0.001 is "-0.00" to toFixed: a zero has no sign (costfmt.Cost).
		return Number.isInteger(x) ? String(x) : x.toFixed(2).replace(/\.?0+$/, '').replace(/^-0$/, '0');
	}

	function plural(n, one, many) {
		return n + ' ' + (n === 1 ? one : many);
	}

	// shellWord quotes s for a POSIX shell, when it needs quoting.
	function shellWord(s) {
		return /^[\w.\/:=,+-]+$/.test(s) ? s : "'" + s.replace(/'/g, "'\\''") + "'";
	}

	// failure turns the API's error answer r into an Error: the answer's
	// own message (kept as .answer, for errors with positions), else what
	// and the status.
	async function failure(r, what) {
		let answer;
		try {
			answer = await r.json();
		} catch (e) {
			return new Error(what + ': ' + r.status + ' ' + r.statusText);
		}
		const e = new Error((answer && answer.error) || (what + ': ' + r.status));
		e.answer = answer;
		return e;
	}

	// fetchAPI asks /api/v1/PATH: a GET without a body, else a POST of
	// body as JSON. It gives the response, for the caller to read; an
	// error answer is thrown as an Error (failure's).
	async function fetchAPI(path, body, signal) {
		const init = body === undefined ? { signal } : {
			method: 'POST',
			headers: { 'Content-Type': 'application/json' },
			body: JSON.stringify(body),
			signal,
		};
		const r = await fetch('/api/v1/' + path, init);
		if (!r.ok) throw await failure(r, path);
		return r;
	}

	// api is fetchAPI's answer read as JSON.
	async function api(path, body, signal) {
		const r = await fetchAPI(path, body, signal);
		try {
			return await r.json();
		} catch (e) {
			if (e.name === 'AbortError') throw e;
			throw new Error(path + ': ' + r.status + ' ' + r.statusText);
		}
	}

	// newest returns a figure's asker: ask(work) aborts the request in
	// flight (a newer change makes its answer useless, and dropping it
	// keeps quick clicks from piling requests on the server), runs
	// work(signal) and gives {seq, value, error}, or null when a newer ask
	// has begun meanwhile, so that only the newest answer shows. The
	// figure's data-sent is the newest ask's sequence number; the figure
	// sets data-seq to the one it shows.
	function newest(figure) {
		let latest = 0;
		let inFlight = null;
		return async function ask(work) {
			const seq = ++latest;
			figure.dataset.sent = String(seq);
			if (inFlight) inFlight.abort();
			const controller = inFlight = new AbortController();
			let value, error;
			try {
				value = await work(controller.signal);
			} catch (e) {
				if (e.name === 'AbortError') return null;
				error = e.message;
			}
			if (seq !== latest) return null; // a newer answer is on its way
			inFlight = null;
			return { seq, value, error };
		};
	}

	window.ploy = Object.freeze({ html, svg, option, actionItem, showError, number, plural, shellWord, fetchAPI, api, newest });
})();
