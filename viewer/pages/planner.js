// Figure 1, the planner (lesson 4, seed 001 fig. 1): controls built from
// GET /api/v1/domains, and every change answered by POST /api/v1/plan
// (and /api/v1/explain when there is no plan). Plain JavaScript, no
// build step, no library.
'use strict';

(function () {
	const $ = (id) => document.getElementById(id);
	const figure = $('planner');
	const domains = new Map(); // name -> the API's description
	let latest = 0; // the sequence number of the newest request
	let inFlight = null; // the AbortController of the newest request

	async function api(path, body, signal) {
		const init = body === undefined ? { signal } : {
			method: 'POST',
			headers: { 'Content-Type': 'application/json' },
			body: JSON.stringify(body),
			signal,
		};
		const r = await fetch('/api/v1/' + path, init);
		let answer;
		try {
			answer = await r.json();
		} catch (e) {
			throw new Error(path + ': ' + r.status + ' ' + r.statusText);
		}
		if (!r.ok) {
			throw new Error(answer.error || (path + ': ' + r.status));
		}
		return answer;
	}

	function option(value, selected) {
		const o = document.createElement('option');
		o.value = o.textContent = value;
		o.selected = selected;
		return o;
	}

	// showDomain rebuilds the goal picker and the fact toggles, each toggle
	// set as in the domain's initial state.
	function showDomain() {
		const d = domains.get($('domain').value);
		if (!d) return;
		const goal = $('goal');
		goal.replaceChildren(...d.goals.map((g, i) => option(g, i === 0)));
		const initial = new Set(d.initial);
		const facts = $('facts');
		facts.replaceChildren(...d.facts.map((name) => {
			const label = document.createElement('label');
			label.className = 'fact';
			const box = document.createElement('input');
			box.type = 'checkbox';
			box.dataset.fact = name;
			box.checked = initial.has(name);
			label.append(box, name);
			return label;
		}));
	}

	// request is the plan request for the controls: the facts flipped from
	// the initial state, as `ploy plan --set/--unset` takes them.
	function request() {
		const d = domains.get($('domain').value);
		const initial = new Set(d.initial);
		const q = { domain: d.name, goal: $('goal').value, search: $('search').value, heuristic: $('heuristic').value, set: [], unset: [] };
		for (const box of $('facts').querySelectorAll('input[data-fact]')) {
			const name = box.dataset.fact;
			if (box.checked && !initial.has(name)) q.set.push(name);
			if (!box.checked && initial.has(name)) q.unset.push(name);
		}
		return q;
	}

	// The controls' state is kept in the address's fragment
	// (#domain=soldier.yaml&goal=KillPlayer&unset=axe_nearby,gun_nearby),
	// so that a figure can be linked to and survives a reload.
	function remember(q) {
		const p = new URLSearchParams({ domain: q.domain, goal: q.goal });
		if (q.set.length) p.set('set', q.set.join(','));
		if (q.unset.length) p.set('unset', q.unset.join(','));
		if (q.search !== 'forward') p.set('search', q.search);
		if (q.heuristic !== 'goal-count') p.set('heuristic', q.heuristic);
		history.replaceState(null, '', '#' + p);
	}

	// pick selects value in a select when it is one of its options.
	function pick(select, value) {
		if (value !== null && [...select.options].some((o) => o.value === value)) select.value = value;
	}

	// recall sets the controls from the fragment; names the page does not
	// offer are ignored.
	function recall() {
		const p = new URLSearchParams(location.hash.slice(1));
		pick($('domain'), p.get('domain'));
		showDomain();
		pick($('goal'), p.get('goal'));
		pick($('search'), p.get('search'));
		pick($('heuristic'), p.get('heuristic'));
		const set = new Set((p.get('set') || '').split(','));
		const unset = new Set((p.get('unset') || '').split(','));
		for (const box of $('facts').querySelectorAll('input[data-fact]')) {
			if (set.has(box.dataset.fact)) box.checked = true;
			if (unset.has(box.dataset.fact)) box.checked = false;
		}
	}

	function shellWord(s) {
		return /^[\w.\/:=,+-]+$/.test(s) ? s : "'" + s.replace(/'/g, "'\\''") + "'";
	}

	function command(q) {
		const words = ['ploy', 'plan', q.domain, '--goal', q.goal];
		if (q.set.length) words.push('--set', q.set.join(','));
		if (q.unset.length) words.push('--unset', q.unset.join(','));
		if (q.search !== 'forward') words.push('--search', q.search);
		if (q.heuristic !== 'goal-count') words.push('--heuristic', q.heuristic);
		return words.map(shellWord).join(' ');
	}

	function plural(n, one, many) {
		return n + ' ' + (n === 1 ? one : many);
	}

	function number(x) {
		return Number.isInteger(x) ? String(x) : x.toFixed(2).replace(/\.?0+$/, '');
	}

	const stopped = {
		budget_exhausted: 'no plan within the budget',
		depth_exceeded: 'no plan within the depth limit',
	};

	function show(q, plan, why, error) {
		const summary = $('summary');
		const steps = $('plan');
		steps.replaceChildren();
		$('why').hidden = true;
		$('error').hidden = !error;
		$('error').textContent = error || '';
		$('command').textContent = command(q);
		if (error) {
			summary.className = 'summary none';
			summary.textContent = 'no answer';
			return;
		}
		const counts = plan.expanded + ' expanded · ' + plan.generated + ' generated';
		if (plan.status === 'found') {
			summary.className = 'summary';
			summary.textContent = plural(plan.plan.length, 'step', 'steps') + ' · cost ' + number(plan.cost) + ' · ' + counts;
			for (const name of plan.plan) {
				const li = document.createElement('li');
				const span = document.createElement('span');
				span.className = 'action';
				span.textContent = name;
				li.append(span);
				steps.append(li);
			}
			if (plan.plan.length === 0) {
				const li = document.createElement('li');
				li.className = 'hint';
				li.textContent = 'the start state already meets the goal';
				steps.append(li);
			}
			return;
		}
		summary.className = 'summary none';
		summary.textContent = (stopped[plan.status] || 'no plan') + ' · ' + counts + (plan.bound ? ' (bound: ' + plan.bound + ')' : '');
		if (why && why.length) {
			$('why-list').replaceChildren(...why.map((reason) => {
				const li = document.createElement('li');
				li.textContent = reason;
				return li;
			}));
			$('why').hidden = false;
		}
	}

	// replan asks for the plan of the controls' state and shows it, unless a
	// newer request has been sent meanwhile. started is when the user acted
	// (performance.now()), for the figure's own timing.
	async function replan(started) {
		const seq = ++latest;
		figure.dataset.sent = String(seq);
		// A newer change makes the answer in flight useless: dropping it
		// keeps quick clicks from piling requests on the server.
		if (inFlight) inFlight.abort();
		const controller = inFlight = new AbortController();
		const q = request();
		remember(q);
		let plan, why, error;
		try {
			plan = await api('plan', q, controller.signal);
			if (plan.status === 'no_plan') {
				why = (await api('explain', Object.assign({ alternatives: 0 }, q), controller.signal)).why;
			}
		} catch (e) {
			error = e.message;
		}
		if (seq !== latest) return; // a newer answer is on its way
		inFlight = null;
		show(q, plan, why, error);
		const answered = performance.now() - started;
		// "On screen" is the next frame after the answer is in the page.
		requestAnimationFrame(() => {
			const ms = performance.now() - started;
			$('timing').textContent = '· on screen in ' + ms.toFixed(1) + ' ms';
			figure.dataset.answerMs = answered.toFixed(2);
			figure.dataset.ms = ms.toFixed(2);
			figure.dataset.seq = String(seq);
			// Figures 2 and 3 trace the same problem, once this answer is
			// on screen: their work does not delay it.
			document.dispatchEvent(new CustomEvent('ploy:problem', { detail: q }));
		});
	}

	// resetFacts sets every toggle as in the domain's initial state.
	function resetFacts() {
		const initial = new Set(domains.get($('domain').value).initial);
		for (const box of $('facts').querySelectorAll('input[data-fact]')) {
			box.checked = initial.has(box.dataset.fact);
		}
	}

	function act(before) {
		return () => {
			const started = performance.now();
			before();
			replan(started);
		};
	}

	$('domain').addEventListener('change', act(showDomain));
	$('reset').addEventListener('click', act(resetFacts));
	for (const id of ['facts', 'goal', 'search', 'heuristic']) {
		$(id).addEventListener('change', act(() => {}));
	}
	// A link followed or an address edited by hand: replaceState fires no
	// hashchange, so only those do.
	window.addEventListener('hashchange', act(recall));

	(async () => {
		const started = performance.now();
		try {
			for (const d of (await api('domains')).domains) {
				if (d.kind === 'state-space') domains.set(d.name, d);
			}
		} catch (e) {
			$('summary').textContent = 'cannot list the domains: ' + e.message;
			return;
		}
		recall();
		replan(started);
	})();
})();
