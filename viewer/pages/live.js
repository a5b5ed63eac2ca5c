// Figure 4, the live agent (seed 001 fig. 3): an NPC runs its plan for
// figure 1's goal in a small world on the server (POST /api/v1/live, ploy's
// agent runtime, one Server-Sent Event per tick), while the user flips the
// world's facts. The stream is a function of its request: a flip restarts
// it with the flip appended at the next tick, and the server replays the
// ticks already shown, unpaced and identical, before going on.
'use strict';

(function () {
	const $ = (id) => document.getElementById(id);
	const { html } = ploy;
	const figure = $('live-figure');
	// Seed 001's figure 3 names three toggles for the soldier; they come
	// first, with the lesson's words.
	const seedToggles = {
		'soldier.yaml': [['axe_nearby', 'hacha cerca'], ['gun_nearby', 'arma cerca'], ['at_cover', 'cobertura']],
	};
	// What to flip to see a replan, in the lede: the domain's own case
	// (a fact of another domain would mislead), else a generic one.
	const examples = {
		'soldier.yaml': 'take the gun away, gun_nearby, while it walks to it',
		'battlemage.yaml': 'take spare_crystals away while it approaches: it cannot recharge',
	};
	const statusText = {
		starting: 'planning (initial)',
		acting: 'acting',
		between_steps: 'step done',
		replanning: 'the plan broke: replanning',
		no_plan: 'no plan: the goal is out of reach; it will try again',
		goal_reached: 'goal reached',
	};
	const endText = {
		goal_reached: 'the goal holds: the run is over (flip a fact to go on)',
		no_plan: 'no plan, and nothing left to change: the run is over (flip a fact to go on)',
		ticks_out: 'the run reached its tick limit',
		search_limit: 'the run reached its search limit',
		size_limit: 'the run reached its size limit',
		time_out: 'the run reached the server\'s time limit',
	};

	let problem = null; // figure 1's: {domain or source, goal, set, unset, described}
	let toggles = []; // {tick, fact, value}, in the order flipped
	let controller = null; // the running stream's
	let replayTarget = 0; // ticks up to it are a replay: drawn once it is reached
	let model = null; // what the stream has said
	let runs = 0;

	function fresh() {
		return { tick: -1, last: null, plan: [], step: 0, planDone: false, log: [], replans: [], failure: null, end: null, toggleOk: false };
	}

	function planText(plan) {
		return plan.length ? plan.join(' → ') : '(empty: the goal holds)';
	}

	function unmetText(unmet) {
		return unmet.map((u) => u.fact + ' ' + u.value).join(', ');
	}

	// take folds one tick of the stream into the model.
	function take(t) {
		if (t.tick === 0) model = fresh();
		model.tick = t.tick;
		model.last = t;
		for (const f of t.toggled) model.log.push({ tick: t.tick, kind: 'toggle', text: 'you set ' + f.fact + ' ' + f.value });
		for (const e of t.events) {
			let text;
			switch (e.kind) {
			case 'goal_chosen':
				text = e.goal ? 'goal ' + e.goal : 'the goal holds: nothing to pursue';
				break;
			case 'plan_made':
				text = 'plan ' + planText(e.plan) + ' · cost ' + ploy.number(e.cost);
				model.plan = e.plan;
				model.planDone = false;
				if (model.replans.length && model.replans[model.replans.length - 1].tick === t.tick) {
					model.replans[model.replans.length - 1].result = planText(e.plan) + ' · cost ' + ploy.number(e.cost);
				}
				break;
			case 'no_plan':
				text = 'no plan (' + e.reason + ')';
				if (model.replans.length && model.replans[model.replans.length - 1].tick === t.tick) {
					model.replans[model.replans.length - 1].result = 'no plan (' + e.reason + ')';
				}
				break;
			case 'replan': {
				text = 'replan: ' + e.reason;
				const r = { n: model.replans.length + 1, tick: t.tick, reason: e.reason, failure: '', result: '', was: model.planDone ? [] : model.plan };
				const f = model.failure;
				if (f && f.reason === e.reason) {
					r.failure = f.action + (f.unmet.length ? ' needed ' + unmetText(f.unmet) : '');
				}
				model.replans.push(r);
				model.failure = null;
				break;
			}
			case 'step_started':
				text = 'start ' + e.action;
				break;
			case 'step_done':
				text = 'done ' + e.action;
				break;
			case 'action_failed':
				text = e.action + ' failed: ' + e.reason + (t.unmet.length ? ' (needs ' + unmetText(t.unmet) + ')' : '');
				model.failure = { action: e.action, reason: e.reason, unmet: t.unmet };
				break;
			case 'plan_done':
				text = 'plan done';
				model.planDone = true;
				break;
			default:
				text = e.kind + (e.action ? ' ' + e.action : '') + (e.reason ? ': ' + e.reason : '');
			}
			model.log.push({ tick: t.tick, kind: e.kind, text });
		}
		if (t.plan.length) {
			model.plan = t.plan;
			model.step = t.step;
		}
	}

	function facts() {
		const d = problem.described;
		const on = new Set(model && model.last ? model.last.facts : startFacts());
		const seeded = (problem.domain && seedToggles[problem.domain]) || [];
		const first = new Set(seeded.map(([f]) => f));
		const box = (fact, caption) => {
			const label = html('label', 'fact');
			const input = document.createElement('input');
			input.type = 'checkbox';
			input.dataset.fact = fact;
			input.checked = on.has(fact);
			input.disabled = !model || !model.toggleOk;
			label.append(input, caption ? fact + ' · ' + caption : fact);
			return label;
		};
		$('live-toggles').replaceChildren(...seeded.map(([f, caption]) => box(f, caption)),
			...d.facts.filter((f) => !first.has(f) && !seeded.length).map((f) => box(f)));
		$('live-more').replaceChildren(...(seeded.length ? d.facts.filter((f) => !first.has(f)).map((f) => box(f)) : []));
		$('live-more').hidden = !seeded.length;
	}

	// startFacts are figure 1's start state.
	function startFacts() {
		const d = problem.described;
		const on = new Set(d.initial);
		for (const f of problem.set) on.add(f);
		for (const f of problem.unset) on.delete(f);
		return [...on];
	}

	function render() {
		facts();
		const t = model.last;
		const ended = model.end;
		$('live-replans').textContent = 'replans: ' + t.replans;
		let state = statusText[t.status] || t.status;
		if (t.status === 'acting') state = 'acting: ' + t.action;
		if (t.status === 'starting' && controller === null && !ended) state = 'press run';
		$('live-state').textContent = state;
		$('live-state').className = 'live-state ' + t.status;
		// Before the first tick of a run (model.tick is -1) nothing has run,
		// so nothing is paused.
		const started = model.tick >= 0;
		$('live-tick').textContent = !started ? '' : 'tick ' + t.tick + (ended ? ' · ' + (endText[ended.end] || ended.end) : controller ? '' : ' · paused');
		$('live-action').textContent = t.action || '—';
		$('live-progress').max = t.duration || 1;
		$('live-progress').value = t.action ? t.progress : 0;
		$('live-progress-text').textContent = t.action ? t.progress + ' of ' + t.duration + ' ticks' : '';
		$('live-plan').replaceChildren(...model.plan.map((a, i) => {
			const li = html('li');
			const done = model.planDone || i < model.step;
			const span = html('span', 'action' + (done ? ' done' : '') + (!done && i === model.step && t.action === a ? ' now' : ''), a);
			li.append(span);
			return li;
		}));
		$('live-replan-list').replaceChildren(...model.replans.map((r) => {
			const li = html('li');
			li.append(html('span', 'live-replan-head', '#' + r.n + ' · tick ' + r.tick + ' · ' + r.reason + (r.failure ? ': ' + r.failure : '')),
				html('span', 'live-replan-was', r.was.length ? 'was ' + r.was.join(' → ') : ''),
				html('span', 'live-replan-plan', r.result ? 'now ' + r.result : ''));
			return li;
		}));
		if (!model.replans.length) $('live-replan-list').replaceChildren(html('li', 'hint', 'none yet'));
		const log = $('live-log');
		log.replaceChildren(...model.log.map((l) => {
			const li = html('li', 'log-' + l.kind);
			li.append(html('span', 'tick-n', 't' + l.tick), l.text);
			return li;
		}));
		keepTopRowWhole(log);
		figure.dataset.tick = String(t.tick);
		figure.dataset.status = t.status;
		figure.dataset.action = t.action;
		figure.dataset.replans = String(t.replans);
		figure.dataset.end = ended ? ended.end : '';
		$('live-pause').disabled = controller === null;
		$('live-run').textContent = controller === null && t.tick > 0 && !ended ? '▶ resume' : '▶ run';
		$('live-run').disabled = controller !== null;
	}

	// keepTopRowWhole scrolls the event log to its newest row. Scrolled
	// to its end, the box would cut its top row across: a gap after the
	// last row, shorter than a row, lets the top row show whole.
	function keepTopRowWhole(log) {
		log.style.paddingBottom = '0px';
		log.scrollTop = log.scrollHeight;
		const top = log.getBoundingClientRect().top + log.clientTop;
		for (const li of log.children) {
			const r = li.getBoundingClientRect();
			if (r.bottom <= top + 0.5) continue;
			if (r.top < top - 0.5) {
				log.style.paddingBottom = (r.bottom - top).toFixed(1) + 'px';
				log.scrollTop = log.scrollHeight;
			}
			break;
		}
	}

	// commandFor is the shell command that sends the request q: to this
	// page's server, or, on the static site (ploy site), which has none,
	// to `ploy serve` at its default address.
	const server = document.getElementById('site-status') ? 'http://127.0.0.1:7070' : location.origin;
	function commandFor(q) {
		return 'curl -sN -H \'Content-Type: application/json\' -d ' + ploy.shellWord(JSON.stringify(q)) + ' ' + server + '/api/v1/live';
	}

	function request(replayTo) {
		// A whole number from 0: what the API takes.
		const seed = Math.max(0, Math.trunc(Number($('live-seed').value) || 0));
		$('live-seed').value = String(seed);
		const q = { domain: problem.domain, source: problem.source, goal: problem.goal, set: problem.set, unset: problem.unset, seed };
		if ($('live-policy').value !== 'on_break') q.policy = $('live-policy').value;
		if (toggles.length) q.toggles = toggles;
		const speed = $('live-speed').value;
		if (speed === 'fast') q.fast = true;
		else q.ticks_per_second = Number(speed);
		if (replayTo > 0) q.replay_to = replayTo;
		return q;
	}

	function showError(message) {
		ploy.showError($('live-error'), message);
	}

	// run starts a stream for the current toggles, replaying up to
	// replayTo, and reads it to its end.
	async function run(replayTo) {
		if (!problem) return; // figure 1 has not answered yet
		stop();
		showError('');
		const c = controller = new AbortController();
		replayTarget = replayTo;
		const q = request(replayTo);
		const seq = ++runs;
		figure.dataset.request = JSON.stringify(q);
		figure.dataset.runs = String(seq);
		$('live-command').textContent = commandFor(q);
		try {
			const r = await ploy.fetchAPI('live', q, c.signal);
			const reader = r.body.pipeThrough(new TextDecoderStream()).getReader();
			let buffer = '';
			let ended = false;
			for (;;) {
				const { value, done } = await reader.read();
				if (done) break;
				buffer += value;
				const blocks = buffer.split('\n\n');
				buffer = blocks.pop();
				for (const block of blocks) {
					let name = '', data = '';
					for (const line of block.split('\n')) {
						if (line.startsWith('event: ')) name = line.slice(7);
						else if (line.startsWith('data: ')) data += line.slice(6);
					}
					const v = JSON.parse(data);
					if (name === 'tick') take(v);
					else if (name === 'end') {
						model.end = v;
						ended = true;
					} else if (name === 'error') throw new Error(v.error);
				}
				if (c !== controller) return;
				if (model.tick >= replayTarget || ended) {
					model.toggleOk = true;
					if (ended) controller = null;
					render();
				}
			}
			if (!ended) throw new Error('the stream broke off at tick ' + model.tick);
		} catch (e) {
			if (e.name === 'AbortError' || c !== controller) return;
			controller = null;
			showError(e.message);
			if (model.last) render();
		}
	}

	function stop() {
		if (controller) controller.abort();
		controller = null;
	}

	// flip sets a fact of the world from the next tick on, and restarts the
	// stream from there.
	function flip(fact) {
		if (!model || !model.last) return;
		const now = Math.max(model.tick, replayTarget);
		const on = new Set(model.last.facts);
		toggles.push({ tick: now + 1, fact, value: !on.has(fact) });
		if (model.end) model.end = null;
		run(now);
	}

	// reset shows the start state, ready to run.
	function reset() {
		stop();
		toggles = [];
		replayTarget = 0;
		model = fresh();
		const start = startFacts();
		model.last = { tick: 0, status: 'starting', facts: start, toggled: [], goal: '', plan: [], step: 0, action: '', progress: 0, duration: 0, replans: 0, events: [], unmet: [] };
		showError('');
		// The request ▶ run will send: "same as" is never empty.
		$('live-command').textContent = commandFor(request(0));
		render();
	}

	$('live-run').addEventListener('click', () => {
		if (model && model.tick > 0 && !model.end) run(model.tick); // resume
		else {
			toggles = [];
			run(0);
		}
	});
	$('live-pause').addEventListener('click', () => {
		stop();
		if (model && model.last) render();
	});
	$('live-restart').addEventListener('click', () => {
		toggles = [];
		run(0);
	});
	for (const id of ['live-seed', 'live-policy']) {
		$(id).addEventListener('change', () => {
			if (problem) reset();
		});
	}
	$('live-speed').addEventListener('change', () => {
		// Only the pace changes: go on from the tick shown.
		if (controller && model) run(Math.max(model.tick, replayTarget));
	});
	figure.addEventListener('change', (e) => {
		const fact = e.target.dataset && e.target.dataset.fact;
		if (fact) flip(fact);
	});

	// Figure 1's problem, with its domain's description (q.described):
	// a pasted domain has no name to look up.
	document.addEventListener('ploy:problem', (e) => {
		const q = e.detail;
		const same = problem && problem.domain === q.domain && problem.source === q.source && problem.goal === q.goal &&
			problem.set.join() === q.set.join() && problem.unset.join() === q.unset.join();
		if (same) return; // figure 1's search or heuristic: not the agent's
		problem = { domain: q.domain, source: q.source, goal: q.goal, set: q.set, unset: q.unset, described: q.described };
		$('live-body').hidden = false;
		$('live-example').textContent = (q.domain && examples[q.domain]) || 'take away a fact its step needs';
		reset();
		figure.dataset.problem = (q.domain || '<source>') + ' ' + q.goal;
	});
})();
