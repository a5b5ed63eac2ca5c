// The live inspector's page (docs/inspector.md): the game's agents from
// the inspector's JSON API, kept current by its event stream; one agent's
// reasons; breakpoints, pause, step and resume; and a decision recording,
// downloaded from the game or opened from a file (or served by `ploy serve
// --replay`), shown with a timeline to scrub through. Plain JavaScript on
// common.js's helpers and graph.js's drawing, no build step.
'use strict';

(function () {
	const $ = (id) => document.getElementById(id);
	const { html, number, plural } = ploy;
	const el = ploy.svg;
	const mode = document.body.dataset.mode; // "live" or "replay"
	// The page's client id: its breakpoints, pause and traces belong to it,
	// and its requests are its heartbeat. At most 64 bytes. One per tab,
	// kept in the tab's sessionStorage: a reload is the same client, so
	// the breakpoints and the pause it set hold (a new id would leave them
	// to the old one, released a heartbeat timeout later).
	const client = (() => {
		const key = 'ploy-inspector-client';
		let id = null;
		try {
			id = sessionStorage.getItem(key);
		} catch (e) { /* storage refused: one id per load */ }
		if (!/^page-[0-9a-f]{16}$/.test(id || '')) {
			id = 'page-' + Array.from(crypto.getRandomValues(new Uint8Array(8)), (b) => b.toString(16).padStart(2, '0')).join('');
			try {
				sessionStorage.setItem(key, id);
			} catch (e) { /* as above */ }
		}
		return id;
	})();
	// The most agents the list asks for (limit=): the answer stays well
	// under the inspector's 8 MiB.
	const listLimit = 500;
	// The most bytes of a recording the page reads (the inspector's
	// Options.MaxRecording, 64 MiB by default).
	const maxRecordingBytes = 64 << 20;
	// How often the page asks again while frames come (ms): a game at 60
	// frames a second does not make 60 requests a second.
	const refreshEvery = 300;
	// The most decisions the timeline marks either side of the one drawn.
	const timelineSide = 64;
	const liveStatuses = ['walking', 'acting', 'waiting', 'no_plan', 'idle'];
	const recordedStatuses = ['found', 'no_plan', 'limit_reached'];

	const game = $('game'), agentsFig = $('agents'), agentFig = $('agent');
	let source = mode === 'replay' ? 'recording' : 'live';
	let state = null; // the inspector's last state
	let list = []; // the agents shown, each as the list's object
	let picked = '';
	let tracedAgent = ''; // the agent whose trace the page turned on
	let detail = null; // live: the picked agent's answer
	let decisions = []; // the picked agent's decisions, oldest first
	let shownDecision = -1; // index in decisions of the decision drawn
	let clicked = false; // the person picked the decision drawn
	let rec = null; // the recording shown: {name, header, decisions, byAgent, ticks, order}
	let tick = 0; // the recording's tick scrubbed to
	let dirtyList = true, dirtyDetail = true, refreshTimer = null;
	const goalsSeen = new Set();
	const actionsSeen = new Set();

	function bump(fig) {
		fig.dataset.seq = String(Number(fig.dataset.seq || 0) + 1);
	}

	function showError(message) {
		ploy.showError($('game-error'), message);
		if (message) console.warn('inspector: ' + message);
	}

	// ask is the API's answer; a GET carries the client id (its heartbeat).
	function ask(path, body) {
		if (body === undefined) return ploy.api(path + (path.includes('?') ? '&' : '?') + 'client=' + encodeURIComponent(client));
		return ploy.api(path, Object.assign({ client }, body));
	}

	// ---- the game's state, live ----

	function showState(s) {
		state = s;
		game.dataset.paused = String(s.paused);
		game.dataset.frame = String(s.frame);
		game.dataset.hits = String(s.hits.length);
		game.dataset.reason = s.reason || '';
		if (source !== 'live') {
			// A recording is shown: its line and no hits stay; back on the
			// live game, this state is asked for again.
			bump(game);
			return;
		}
		let text;
		if (s.paused) {
			text = 'paused at frame ' + s.frame + (s.reason ? ' (' + s.reason + ')' : '');
		} else if (s.pause_next) {
			text = 'pausing at the next frame (frame ' + s.frame + ')';
		} else {
			text = 'running · frame ' + s.frame;
		}
		text += ' · ' + plural(s.agents, 'agent', 'agents') + ' · ' + plural(s.breakpoints.length, 'breakpoint', 'breakpoints');
		const line = $('game-state');
		line.textContent = text;
		line.className = 'game-state' + (s.paused ? ' paused' : '');
		$('pause').disabled = s.paused || s.pause_next;
		$('resume').disabled = !s.paused && !s.pause_next;
		const hits = $('hits');
		hits.replaceChildren(...s.hits.map((h) => {
			const li = html('li');
			const name = html('button', 'link', h.agent);
			name.type = 'button';
			name.addEventListener('click', () => pick(h.agent));
			li.append('breakpoint #' + h.breakpoint + ' · ', name, ' ' + h.what + ' (tick ' + h.tick + ')');
			return li;
		}));
		hits.hidden = s.hits.length === 0;
		bump(game);
	}

	// An answer's state is shown only when no event came while it was
	// on its way: the stream's 'paused' can overtake the answer to the
	// pause that caused it, which would then show the game still
	// running.
	let events = 0;
	async function askState(path, body) {
		const before = events;
		const s = await ask(path, body);
		if (events === before) showState(s);
		return s;
	}

	async function command(what) {
		try {
			await askState(what, {});
			showError('');
		} catch (e) {
			showError(what + ': ' + e.message);
		}
	}

	// The event stream keeps the copy current: a frame that changed the
	// picked agent asks for its panel again; any frame, the list.
	function openEvents() {
		const stream = new EventSource('/api/v1/events?client=' + encodeURIComponent(client));
		const stateEvent = (e) => {
			events++;
			showState(JSON.parse(e.data));
			dirtyList = dirtyDetail = true; // a pause's copy is the frame's
			schedule();
		};
		stream.addEventListener('state', stateEvent);
		stream.addEventListener('paused', stateEvent);
		stream.addEventListener('resumed', stateEvent);
		stream.addEventListener('frame', (e) => {
			const f = JSON.parse(e.data);
			if (state) {
				state.frame = f.tick;
				if (!state.paused && source === 'live') $('game-state').textContent = $('game-state').textContent.replace(/frame \d+/, 'frame ' + f.tick);
			}
			dirtyList = true;
			if (picked && (f.more > 0 || f.changed.includes(picked))) dirtyDetail = true;
			schedule();
		});
		stream.addEventListener('lost', () => {
			dirtyList = dirtyDetail = true;
			schedule();
		});
		// The browser opens the stream again by itself; meanwhile the
		// heartbeat holds the page's breakpoints.
		stream.onerror = () => { game.dataset.stream = 'lost'; };
		stream.onopen = () => { game.dataset.stream = 'open'; };
		// A page the tab leaves may be kept, frozen, for the back button
		// (the back/forward cache) with its stream still open: the
		// inspector would take the client for about, and a pause of its
		// for good. Left, it closes the stream; shown again, it opens one.
		window.addEventListener('pagehide', () => stream.close(), { once: true });
	}
	window.addEventListener('pageshow', (e) => {
		if (!e.persisted || mode !== 'live') return;
		game.dataset.stream = 'lost';
		openEvents();
		askState('state').catch((err) => showError(err.message));
	});

	function schedule() {
		if (refreshTimer !== null || source !== 'live') return;
		refreshTimer = setTimeout(async () => {
			if (source !== 'live') {
				refreshTimer = null;
				return;
			}
			try {
				if (dirtyList) {
					dirtyList = false;
					await refreshList();
				}
				if (dirtyDetail && picked) {
					dirtyDetail = false;
					await refreshDetail();
				}
				showError('');
			} catch (e) {
				showError(e.message);
			}
			refreshTimer = null;
			if (dirtyList || dirtyDetail) schedule();
		}, refreshEvery);
	}

	function heartbeat(every) {
		setInterval(() => {
			if (source === 'live') askState('heartbeat', {}).catch((e) => showError('heartbeat: ' + e.message));
		}, every);
	}

	// ---- the agent list and the map ----

	function filters() {
		return { kind: $('filter-kind').value, goal: $('filter-goal').value, status: $('filter-status').value };
	}

	async function refreshList() {
		const f = filters();
		let q = 'agents?sort=replans&limit=' + listLimit;
		if (f.kind) q += '&kind=' + encodeURIComponent(f.kind);
		if (f.goal) q += '&goal=' + (f.goal === '-' ? '' : encodeURIComponent(f.goal));
		if (f.status) q += '&status=' + encodeURIComponent(f.status);
		const answer = await ask(q);
		// A recording opened meanwhile is what the page shows now.
		if (source !== 'live') return;
		list = answer;
		showList(state ? state.agents : list.length);
	}

	function statusOptions(values) {
		const s = $('filter-status');
		const was = s.value;
		s.replaceChildren(ploy.option(''), ...values.map((v) => ploy.option(v, v === was)));
		s.options[0].textContent = 'any';
		if (!values.includes(was)) s.value = '';
	}

	function noteGoals(goals) {
		let added = false;
		for (const g of goals) {
			if (g && !goalsSeen.has(g)) {
				goalsSeen.add(g);
				added = true;
			}
		}
		if (!added) return;
		const s = $('filter-goal');
		const was = s.value;
		const none = ploy.option('-', was === '-');
		none.textContent = '(none)';
		const any = ploy.option('', was === '');
		any.textContent = 'any';
		s.replaceChildren(any, none, ...[...goalsSeen].sort().map((g) => ploy.option(g, g === was)));
	}

	function showList(total) {
		noteGoals(list.map((a) => a.goal));
		// Rows are kept by name and updated in place: a list that a live
		// game re-sorts several times a second keeps the row under the
		// pointer, its focus and its hover.
		const body = $('agent-list').tBodies[0];
		const rows = new Map([...body.rows].map((tr) => [tr.dataset.name, tr]));
		const order = list.map((a) => {
			let tr = rows.get(a.name);
			if (!tr) {
				tr = html('tr');
				tr.dataset.name = a.name;
				tr.tabIndex = 0;
				tr.append(html('td', 'name', a.name), html('td'), html('td'), html('td'), html('td', 'num'));
			}
			rows.delete(a.name);
			tr.className = a.name === picked ? 'picked' : '';
			tr.cells[1].textContent = a.kind;
			tr.cells[2].textContent = a.goal || '—';
			tr.cells[3].textContent = a.status.replace('_', ' ');
			tr.cells[3].className = 'status ' + a.status;
			tr.cells[4].textContent = a.replans + ' / ' + a.plans;
			return tr;
		});
		for (const tr of rows.values()) tr.remove();
		order.forEach((tr, i) => {
			if (body.rows[i] !== tr) body.insertBefore(tr, body.rows[i] || null);
		});
		const shown = list.length;
		$('agents-count').textContent = shown === total
			? plural(total, 'agent', 'agents') + ', most replans first'
			: shown + ' of ' + plural(total, 'agent', 'agents') + ', most replans first';
		agentsFig.dataset.count = String(shown);
		drawMap();
		bump(agentsFig);
	}

	// drawMap places the listed agents that have a position: the bounds
	// of all of them, y down as a game's screen has it.
	function drawMap() {
		const box = $('map');
		const placed = list.filter((a) => a.at);
		agentsFig.dataset.placed = String(placed.length);
		if (!placed.length) {
			box.replaceChildren(html('p', 'hint', 'no agent listed has a position'));
			return;
		}
		let x0 = Infinity, y0 = Infinity, x1 = -Infinity, y1 = -Infinity;
		for (const a of placed) {
			x0 = Math.min(x0, a.at.X); x1 = Math.max(x1, a.at.X);
			y0 = Math.min(y0, a.at.Y); y1 = Math.max(y1, a.at.Y);
		}
		const w = Math.max(x1 - x0, 1), h = Math.max(y1 - y0, 1);
		const width = 400, height = Math.max(120, Math.min(300, Math.round(width * h / w)));
		const pad = 10;
		const sx = (x) => pad + (x - x0) / w * (width - 2 * pad);
		const sy = (y) => pad + (y - y0) / h * (height - 2 * pad);
		const svg = el('svg', { viewBox: '0 0 ' + width + ' ' + height, role: 'img', 'aria-label': 'the agents on a map' });
		svg.append(el('rect', { x: 0, y: 0, width, height, class: 'ground' }));
		let mark = null;
		for (const a of placed) {
			const dot = el('circle', { cx: sx(a.at.X).toFixed(1), cy: sy(a.at.Y).toFixed(1), r: 3.5, class: 'dot ' + a.status });
			dot.dataset.name = a.name;
			dot.append(el('title', {}, a.name + ' at ' + place(a.at) + ' · ' + a.status));
			if (a.name === picked) mark = dot;
			else svg.append(dot);
		}
		if (mark) {
			// The picked one on top, ringed.
			mark.setAttribute('r', '6');
			mark.classList.add('picked');
			svg.append(mark);
		}
		box.replaceChildren(svg);
	}

	// ---- one agent ----

	async function pick(name) {
		if (!name) return;
		picked = name;
		shownDecision = -1;
		clicked = false;
		agentFig.dataset.name = name;
		for (const tr of $('agent-list').tBodies[0].rows) tr.classList.toggle('picked', tr.dataset.name === name);
		drawMap();
		if (source === 'recording') {
			showRecordedAgent();
			return;
		}
		// The trace (what its searches turn down) is collected for the
		// agent looked at only.
		try {
			if (tracedAgent && tracedAgent !== name) await ask('trace', { agent: tracedAgent, on: false });
			tracedAgent = name;
			await ask('trace', { agent: name, on: true });
			await refreshDetail();
			showError('');
		} catch (e) {
			showError(e.message);
		}
	}

	async function refreshDetail() {
		const name = picked;
		const [d, ds] = await Promise.all([ask('agents/' + encodeURIComponent(name)), ask('agents/' + encodeURIComponent(name) + '/decisions?limit=64')]);
		if (name !== picked || source !== 'live') return;
		detail = d;
		noteGoals((d.options || []).map((o) => o.goal));
		// A decision the person clicked stays drawn while it is kept;
		// else the newest search is.
		const keep = clicked && shownDecision >= 0 && shownDecision < decisions.length ? decisions[shownDecision].tick : null;
		decisions = ds;
		shownDecision = keep === null ? -1 : decisions.findIndex((x) => x.tick === keep);
		showAgent({
			name: d.name, kind: d.kind, goal: d.goal, status: d.status, plans: d.plans, replans: d.replans,
			facts: d.facts, values: d.values, targets: d.targets, at: d.at,
			options: d.options, optionsTick: d.options_tick, steps: d.steps, planCost: d.plan_cost, mtr: d.mtr,
			stats: d.stats, tick: d.tick, traced: d.traced, breakpoints: d.breakpoints,
		});
		agentFig.dataset.version = String(d.version);
	}

	// place writes a position as the CLI writes a cost: at most two
	// decimals.
	function place(p) {
		return number(p.X) + ',' + number(p.Y);
	}

	function chip(text, cls) {
		return html('li', cls || '', text);
	}

	// showAgent draws the panel from v: the live agent's answer, or what a
	// recording says of it at the tick scrubbed to.
	function showAgent(v) {
		$('agent-body').hidden = false;
		$('agent-title').textContent = v.name;
		agentFig.dataset.kind = v.kind;
		const where = v.at ? ' · at ' + place(v.at) : '';
		$('agent-summary').textContent = v.kind + (v.goal ? ' · goal ' + v.goal : ' · no goal') + ' · ' + v.status.replace('_', ' ') +
			' · ' + plural(v.plans, 'search', 'searches') + ', ' + plural(v.replans, 'replan', 'replans') + (v.tick !== undefined ? ' · its tick ' + v.tick : '') + where;
		$('agent-summary').className = 'agent-summary';
		// Options, as goal choice last weighed them.
		const options = $('options').tBodies[0];
		options.replaceChildren(...(v.options || []).map((o) => {
			const tr = html('tr', o.chosen ? 'chosen' : '');
			tr.append(html('td', 'goal', o.goal), html('td', 'num', number(o.priority)), html('td', 'num', number(o.score)), html('td', 'reason', o.why));
			return tr;
		}));
		if (!(v.options || []).length) {
			const tr = html('tr');
			const td = html('td', 'hint', v.kind === 'htn' || v.kind === 'tree' ? 'an HTN or tree agent weighs no goal options' : 'no goal options recorded yet');
			td.colSpan = 4;
			tr.append(td);
			options.append(tr);
		}
		$('options-tick').textContent = v.optionsTick ? '(weighed at tick ' + v.optionsTick + ')' : '';
		showSteps(v.steps || [], v.planCost);
		const mtr = $('mtr');
		mtr.hidden = !(v.mtr && v.mtr.length);
		mtr.textContent = mtr.hidden ? '' : 'MTR (the methods it took, by each compound task\'s method index): ' + v.mtr.join(' · ');
		const s = v.stats;
		$('stats').textContent = s ? 'steps done ' + s.steps_done + ' · failed ' + s.actions_failed + ' · no plan ' + s.no_plan +
			' · interruptions ' + s.interruptions + ' · states expanded ' + s.expanded +
			(Object.keys(s.replan_reasons || {}).length ? ' · replans by reason: ' + Object.entries(s.replan_reasons).map(([r, n]) => r + ' ' + n).join(', ') : '') : '';
		// Facts, or a resolver agent's key values and targets.
		const facts = $('facts');
		if (v.values) {
			$('facts-title').textContent = 'Key values';
			facts.replaceChildren(...Object.entries(v.values).sort(([a], [b]) => a < b ? -1 : 1).map(([k, x]) => chip(k + ' = ' + x, x ? 'on' : '')));
			for (const [t, at] of Object.entries(v.targets || {}).sort(([a], [b]) => a < b ? -1 : 1)) facts.append(chip(t + ' at ' + place(at), 'target'));
		} else {
			$('facts-title').textContent = 'Facts that hold';
			facts.replaceChildren(...(v.facts || []).map((f) => chip(f, 'on')));
		}
		if (!facts.children.length) facts.append(chip('none', 'empty'));
		agentFig.dataset.facts = String(facts.querySelectorAll('li:not(.empty)').length);
		showBreakpoints(v);
		showTimeline();
		bump(agentFig);
	}

	// showSteps lists the plan, its head and its tail: a long plan shows
	// its first and last steps around the one running.
	function showSteps(steps, total) {
		const ol = $('plan-steps');
		const keep = new Set();
		const now = Math.max(0, steps.findIndex((s) => s.state === 'running' || s.state === 'next'));
		for (let i = 0; i < steps.length; i++) if (i < 3 || i >= steps.length - 3 || Math.abs(i - now) <= 2) keep.add(i);
		const items = [];
		let gap = false;
		steps.forEach((s, i) => {
			if (s.action) actionsSeen.add(s.action);
			if (!keep.has(i)) {
				if (!gap) items.push(html('li', 'gap', '…'));
				gap = true;
				return;
			}
			gap = false;
			const li = html('li', s.state);
			li.value = i + 1;
			li.append(html('span', 'action', s.action));
			if (s.cost !== null && s.cost !== undefined) li.append(html('span', 'cost', number(s.cost)));
			items.push(li);
		});
		ol.replaceChildren(...items);
		ol.hidden = !steps.length;
		$('no-plan').hidden = steps.length > 0;
		$('plan-cost').textContent = total !== null && total !== undefined ? '(cost ' + number(total) + ', ' + plural(steps.length, 'step', 'steps') + ')' : steps.length ? '(' + plural(steps.length, 'step', 'steps') + ')' : '';
		agentFig.dataset.steps = String(steps.length);
	}

	// ---- breakpoints ----

	function showBreakpoints(v) {
		const live = source === 'live';
		$('breakpoint-controls').hidden = !live;
		if (!live) return;
		const bps = v.breakpoints || [];
		$('bp-plan').checked = bps.some((b) => b.on === 'plan');
		$('bp-goal').checked = bps.some((b) => b.on === 'goal');
		for (const d of decisions) for (const s of d.plan || []) actionsSeen.add(s.action);
		const select = $('bp-action');
		const was = select.value;
		select.replaceChildren(ploy.option(''), ...[...actionsSeen].sort().map((a) => ploy.option(a, a === was)));
		select.options[0].textContent = '—';
		$('bp-list').replaceChildren(...bps.map((b) => {
			const li = html('li', 'bp', '#' + b.id + ' on ' + b.on + (b.action ? ' ' + b.action : '') + ' · ' + plural(b.hits, 'hit', 'hits') + ' ');
			const x = html('button', 'link', '×');
			x.type = 'button';
			x.title = 'clear this breakpoint';
			x.addEventListener('click', () => clearBreakpoint({ id: b.id }));
			li.append(x);
			return li;
		}));
		agentFig.dataset.breakpoints = String(bps.length);
	}

	async function setBreakpoint(on, action) {
		try {
			await ask('breakpoints', action ? { agent: picked, on, action } : { agent: picked, on });
			await refreshDetail();
			await askState('state');
			showError('');
		} catch (e) {
			showError('breakpoint: ' + e.message);
		}
	}

	async function clearBreakpoint(which) {
		try {
			await ask('breakpoints/clear', which);
			await refreshDetail();
			await askState('state');
			showError('');
		} catch (e) {
			showError('breakpoint: ' + e.message);
		}
	}

	function toggleBreakpoint(on, checked) {
		if (checked) return setBreakpoint(on);
		const b = ((detail && detail.breakpoints) || []).find((x) => x.on === on);
		if (b) return clearBreakpoint({ id: b.id });
	}

	// ---- decisions: the timeline and the last search ----

	// showTimeline marks each decision at its tick: a search that found a
	// plan, one that found none, an HTN agent's interruption check; in a
	// recording, the tick scrubbed to.
	function showTimeline() {
		const box = $('timeline');
		agentFig.dataset.decisions = String(decisions.length);
		if (!decisions.length) {
			box.replaceChildren(html('p', 'hint', source === 'live' ? 'no decision recorded yet (is the inspector the agent\'s Decisions sink?)' : 'no decision of this agent'));
			$('decision').replaceChildren();
			$('decision-graph').replaceChildren();
			$('search-lede').textContent = '';
			return;
		}
		if (shownDecision < 0) shownDecision = defaultDecision();
		// The marks drawn: the decisions either side of the one shown (in a
		// recording, none before the tick scrubbed to: its first ones), a
		// bounded number: a recording may hold tens of thousands of one
		// agent's, redrawn at every scrub.
		const centre = Math.max(shownDecision, 0);
		const from = Math.max(0, centre - timelineSide), to = Math.min(decisions.length, centre + timelineSide + 1);
		let lo = decisions[from].tick, hi = decisions[to - 1].tick;
		if (source === 'recording') {
			// The agent's own decisions, and the tick scrubbed to.
			lo = Math.min(lo, tick);
			hi = Math.max(hi, tick);
		}
		const width = 600, height = 44, pad = 12;
		const span = Math.max(hi - lo, 1);
		const x = (t) => pad + (t - lo) / span * (width - 2 * pad);
		const svg = el('svg', { viewBox: '0 0 ' + width + ' ' + height, role: 'img', 'aria-label': 'the agent\'s decisions by tick' });
		svg.append(el('line', { x1: pad, y1: 22, x2: width - pad, y2: 22, class: 'axis' }));
		svg.append(el('text', { x: pad, y: 40, class: 'tick-label' }, 'tick ' + lo), el('text', { x: width - pad, y: 40, class: 'tick-label end' }, 'tick ' + hi));
		agentFig.dataset.marks = String(to - from);
		decisions.slice(from, to).forEach((d, k) => {
			const i = from + k;
			const cls = 'mark ' + (d.decided === 'interruption' ? 'interruption' : d.status) + (i === shownDecision ? ' shown' : '');
			const m = el('rect', { x: (x(d.tick) - 3).toFixed(1), y: 12, width: 6, height: 20, rx: 2, class: cls, tabindex: '0' });
			m.dataset.index = String(i);
			m.append(el('title', {}, 'tick ' + d.tick + ': ' + describeDecision(d)));
			svg.append(m);
		});
		if (source === 'recording') svg.append(el('line', { x1: x(tick).toFixed(1), y1: 4, x2: x(tick).toFixed(1), y2: 36, class: 'cursor' }));
		box.replaceChildren(svg);
		showDecision();
	}

	// defaultDecision is the decision to draw: its last search (live, the
	// last; in a recording the last at or before the tick scrubbed to),
	// past decisions that searched nothing (no goal option applied), else
	// its last decision.
	function defaultDecision() {
		let last = -1, searched = -1;
		decisions.forEach((d, i) => {
			if (source === 'recording' && d.tick > tick) return;
			last = i;
			if (d.status !== 'not_searched') searched = i;
		});
		return searched >= 0 ? searched : last;
	}

	function describeDecision(d) {
		const what = d.decided === 'interruption' ? 'an interruption check (' + (d.taken ? 'taken' : 'not taken') + ')'
			: 'plan for ' + (d.goal ? 'goal ' + d.goal : d.task ? 'task ' + d.task : 'nothing');
		const plan = (d.plan || []).map((s) => s.action).join(' → ');
		return what + ', ' + d.reason + ' → ' + d.status.replace('_', ' ') + (plan ? ': ' + plan + ' (cost ' + number(d.cost) + ')' : '');
	}

	function showDecision() {
		const box = $('decision');
		const d = decisions[shownDecision];
		agentFig.dataset.shown = d ? String(d.tick) : '';
		if (!d) {
			box.replaceChildren(html('p', 'hint', 'no decision at or before this tick'));
			$('decision-graph').replaceChildren();
			$('search-lede').textContent = '';
			return;
		}
		const p = html('p', 'decision-line');
		p.append(html('strong', '', 'tick ' + d.tick + ' '), describeDecision(d));
		const more = html('p', 'hint', (d.stats ? plural(d.stats.expanded || 0, 'state', 'states') + ' expanded · ' : '') +
			(d.rejected ? plural(d.rejected.length, 'alternative', 'alternatives') + ' turned down'
				: source === 'live' ? 'no trace (the inspector traces the agent picked, from its next search on)' : 'no trace: the agent was not traced when it decided'));
		box.replaceChildren(p, more);
		drawSearch(d);
	}

	// drawSearch draws the decision's search as far as its trace
	// (rejected) tells it: a resolver agent's as figure 8 draws a resolve
	// (the chain to the goal, the chains it beat, the actions it could not
	// use), any other's as figure 2 draws a search (the start, the plan's
	// path to the goal, and the actions turned down at the start).
	function drawSearch(d) {
		const box = $('decision-graph');
		const rejected = d.rejected || [];
		for (const r of rejected) actionsSeen.add(r.action);
		const plan = (d.plan || []).map((s) => s.action);
		agentFig.dataset.rejected = String(rejected.length);
		const nodes = [], edges = [];
		if (d.kind === 'resolver') {
			$('search-title').textContent = 'Its last resolve, as figure 8 draws it';
			$('search-lede').textContent = 'The chain it took in blue, numbered head first; the chains it beat and the actions it could not use in orange, with why.';
			const goal = 'g:' + (d.goal || 'goal');
			const width = (t) => 7.2 * t.length + 34;
			nodes.push({ id: goal, width: width(d.goal || 'goal'), height: 30, cls: 'goal-node goal', label: d.goal || '(no goal)', rx: 14, data: { goal: d.goal || '' } });
			const seen = new Map();
			const node = (a, cls, note) => {
				if (seen.has(a)) return;
				seen.set(a, true);
				nodes.push({ id: 'a:' + a, width: Math.max(width(a), 6.4 * note.length + 16), height: 40, cls: 'action-node ' + cls, label: a, note, y: -3, data: { action: a } });
			};
			plan.forEach((a, i) => node(a, 'chain', 'step ' + (i + 1) + ' · ' + number(d.plan[i].cost)));
			const edgeKeys = new Set();
			const chainEdges = (chain, cls) => chain.forEach((a, i) => {
				const to = i + 1 < chain.length ? 'a:' + chain[i + 1] : goal;
				const key = 'a:' + a + '>' + to;
				if (edgeKeys.has(key)) return;
				edgeKeys.add(key);
				edges.push({ from: 'a:' + a, to, name: key, cls, width: 10, arrow: cls ? 'insp-arrow-chain' : 'insp-arrow' });
			});
			chainEdges(plan, 'chain');
			for (const r of rejected) {
				if (r.plan) {
					r.plan.forEach((a) => node(a, 'rejected', a === r.action ? 'chain cost ' + number(r.cost) : ''));
					chainEdges(r.plan, '');
				} else {
					node(r.action, 'rejected', r.reason);
				}
			}
			finishGraph(box, { graph: { rankdir: 'LR', nodesep: 14, ranksep: 40, edgesep: 8, marginx: 6, marginy: 6 }, nodes, edges, aria: 'the resolve\'s chains', cls: ['action-graph'], arrows: 'insp-arrow', scale: 1.2 }, rejected);
			return;
		}
		$('search-title').textContent = 'Its last search, as figure 2 draws it';
		$('search-lede').textContent = d.kind === 'goap'
			? 'From the state it searched from, #0: the plan\'s path to the goal in blue; the actions turned down at the start greyed, with why.'
			: 'The plan its decomposition gave, step by step (an HTN or tree agent\'s trace lists nothing turned down).';
		const size = (id) => ({ width: 30 + 7 * id.length, height: 22 });
		nodes.push(Object.assign({ id: 'n0', cls: 'path', label: '#0', title: '#0 the start' + (d.snapshot && d.snapshot.facts ? ': ' + d.snapshot.facts.join(', ') : '') }, size('#0')));
		plan.forEach((a, i) => {
			const id = '#' + (i + 1);
			nodes.push(Object.assign({ id: 'n' + (i + 1), cls: 'path' + (i === plan.length - 1 ? ' goal' : ''), label: id, title: id + ' after ' + a + ' (cost ' + number(d.plan[i].cost) + ')' }, size(id)));
			edges.push({ from: 'n' + i, to: 'n' + (i + 1), label: a + ' · ' + number(d.plan[i].cost), cls: 'path' });
		});
		rejected.forEach((r, i) => {
			const id = 'r' + i;
			const label = r.plan ? 'cost ' + number(r.cost) : '✗';
			nodes.push({ id, width: 6.2 * label.length + 20, height: 22, cls: 'closed rejected', label, title: r.action + ': ' + r.reason });
			edges.push({ from: 'n0', to: id, label: r.action, cls: 'rejected' });
		});
		finishGraph(box, { graph: { rankdir: 'LR', nodesep: 6, ranksep: 14, edgesep: 4, marginx: 4, marginy: 4 }, nodes, edges, aria: 'the search', scale: 1.3 }, rejected);
	}

	function finishGraph(box, spec, rejected) {
		if (spec.nodes.length <= 1 && !rejected.length) {
			box.replaceChildren(html('p', 'hint', 'nothing to draw: no plan and nothing turned down'));
			agentFig.dataset.graph = '0';
			return;
		}
		const parts = ployGraph.draw(spec);
		const reasons = html('ul', 'reasons');
		for (const r of rejected) {
			const li = html('li');
			li.append(html('span', 'action', r.action), ' ' + r.reason + (r.plan ? ': ' + r.plan.join(' → ') + ' (cost ' + number(r.cost) + ')' : ''));
			reasons.append(li);
		}
		box.replaceChildren(parts.svg, reasons);
		agentFig.dataset.graph = String(parts.nodes.size);
	}

	// ---- a recording ----

	// parseRecording reads a decision recording (docs/records.md): a
	// header line, then one decision a line. A line that is not one says
	// where.
	function parseRecording(text, name) {
		const lines = text.split('\n');
		if (lines.length && lines[lines.length - 1] === '') lines.pop();
		const fail = (n, message) => { throw new Error(name + ':' + n + ': ' + message); };
		if (!lines.length) fail(1, 'empty: a decision recording starts with its header line');
		let header;
		try {
			header = JSON.parse(lines[0]);
		} catch (e) {
			fail(1, 'the header is not JSON: ' + e.message);
		}
		if (!header || header.format !== 'ploy-decisions') fail(1, 'not a decision recording: its header\'s format is not "ploy-decisions"');
		if (header.version !== 1) fail(1, 'a decision recording of version ' + header.version + ', not 1');
		const out = [];
		for (let i = 1; i < lines.length; i++) {
			let d;
			try {
				d = JSON.parse(lines[i]);
			} catch (e) {
				fail(i + 1, e.message);
			}
			if (!d || typeof d.agent !== 'string' || !Number.isInteger(d.tick) || typeof d.status !== 'string') {
				fail(i + 1, 'a decision needs "agent", "tick" and "status"');
			}
			out.push(d);
		}
		return { name, header, decisions: out };
	}

	function useRecording(r) {
		source = 'recording';
		const byAgent = new Map();
		const ticks = new Set();
		r.decisions.forEach((d) => {
			if (!byAgent.has(d.agent)) byAgent.set(d.agent, []);
			byAgent.get(d.agent).push(d);
			ticks.add(d.tick);
		});
		for (const ds of byAgent.values()) ds.sort((a, b) => a.tick - b.tick);
		rec = Object.assign(r, { byAgent, ticks: [...ticks].sort((a, b) => a - b) });
		if (!rec.ticks.length) rec.ticks = [0];
		game.dataset.source = 'recording';
		game.dataset.decisions = String(r.decisions.length);
		game.dataset.agents = String(byAgent.size);
		$('live-controls').hidden = true;
		$('hits').hidden = true;
		$('back-live').hidden = mode !== 'live';
		$('timeline-panel').hidden = false;
		$('game-state').textContent = 'recording ' + r.name;
		$('game-state').className = 'game-state';
		const scrub = $('scrub');
		scrub.min = String(rec.ticks[0]);
		scrub.max = String(rec.ticks[rec.ticks.length - 1]);
		$('recording-summary').textContent = plural(r.decisions.length, 'decision', 'decisions') + ' of ' + plural(byAgent.size, 'agent', 'agents') +
			', ticks ' + rec.ticks[0] + ' to ' + rec.ticks[rec.ticks.length - 1] + (r.header.domain ? ' · domain ' + r.header.domain : '') +
			(r.header.dropped ? ' · ' + r.header.dropped + ' earlier decisions not in it' : '');
		statusOptions(recordedStatuses);
		noteGoals(r.decisions.map((d) => d.goal || d.task));
		if (picked && !byAgent.has(picked)) picked = '';
		scrubTo(rec.ticks[rec.ticks.length - 1]);
		bump(game);
	}

	// scrubTo shows the recording at tick t: each agent as its last
	// decision at or before t left it.
	function scrubTo(t) {
		tick = Math.max(rec.ticks[0], Math.min(t, rec.ticks[rec.ticks.length - 1]));
		$('scrub').value = String(tick);
		$('scrub-tick').textContent = 'tick ' + tick;
		game.dataset.tick = String(tick);
		const f = filters();
		const rows = [];
		for (const [name, ds] of rec.byAgent) {
			let last = null, plans = 0, replans = 0;
			for (const d of ds) {
				if (d.tick > tick) break;
				last = d;
				if (d.decided === 'plan') {
					plans++;
					if (d.reason !== 'start') replans++;
				}
			}
			const a = { name, kind: ds[0].kind, goal: last ? (last.goal || last.task || '') : '', status: last ? last.status : 'none yet', plans, replans };
			if (last && last.snapshot && last.snapshot.at) a.at = last.snapshot.at;
			if (f.kind && a.kind !== f.kind) continue;
			if (f.goal && (f.goal === '-' ? a.goal !== '' : a.goal !== f.goal)) continue;
			if (f.status && a.status !== f.status) continue;
			rows.push(a);
		}
		rows.sort((a, b) => b.replans - a.replans);
		list = rows.slice(0, listLimit);
		showList(rec.byAgent.size);
		if (picked) showRecordedAgent();
		bump(game);
	}

	// showRecordedAgent shows the picked agent as the recording has it at
	// the tick scrubbed to.
	function showRecordedAgent() {
		decisions = rec.byAgent.get(picked) || [];
		let at = -1, plans = 0, replans = 0;
		decisions.forEach((d, i) => {
			if (d.tick > tick) return;
			at = i;
			if (d.decided === 'plan') {
				plans++;
				if (d.reason !== 'start') replans++;
			}
		});
		shownDecision = defaultDecision();
		const d = decisions[at];
		if (!d) {
			showAgent({ name: picked, kind: decisions.length ? decisions[0].kind : '?', goal: '', status: 'none yet', plans, replans, steps: [] });
			return;
		}
		const snap = d.snapshot || {};
		showAgent({
			name: picked, kind: d.kind, goal: d.goal || d.task || '', status: d.status, plans, replans,
			facts: snap.facts, values: snap.values, targets: snap.targets, at: snap.at,
			options: d.options, optionsTick: d.options ? d.tick : 0,
			steps: (d.plan || []).map((s) => ({ action: s.action, cost: s.cost, state: 'later' })), planCost: (d.plan || []).length ? d.cost : null,
			mtr: d.mtr, tick: d.tick,
		});
	}

	async function openFile(file) {
		if (file.size > maxRecordingBytes) {
			showError(file.name + ': ' + file.size + ' bytes, more than the ' + maxRecordingBytes + ' the page reads');
			return;
		}
		try {
			useRecording(parseRecording(await file.text(), file.name));
			showError('');
		} catch (e) {
			showError(e.message);
		}
	}

	function backToLive() {
		source = 'live';
		rec = null;
		game.dataset.source = 'live';
		$('live-controls').hidden = false;
		$('back-live').hidden = true;
		$('timeline-panel').hidden = true;
		$('open-file').value = '';
		statusOptions(liveStatuses);
		decisions = [];
		dirtyList = dirtyDetail = true;
		if (picked) pick(picked);
		schedule();
		askState('state').catch((e) => showError(e.message));
	}

	// ---- wiring ----

	for (const id of ['filter-kind', 'filter-goal', 'filter-status']) {
		$(id).addEventListener('change', () => {
			if (source === 'recording') {
				scrubTo(tick);
				return;
			}
			dirtyList = true;
			schedule();
		});
	}
	$('agent-list').addEventListener('click', (e) => {
		const tr = e.target.closest('tr[data-name]');
		if (tr) pick(tr.dataset.name);
	});
	$('agent-list').addEventListener('keydown', (e) => {
		const tr = e.target.closest('tr[data-name]');
		if (tr && e.key === 'Enter') pick(tr.dataset.name);
	});
	$('map').addEventListener('click', (e) => {
		const dot = e.target.closest('circle[data-name]');
		if (dot) pick(dot.dataset.name);
	});
	$('timeline').addEventListener('click', (e) => {
		const m = e.target.closest('rect[data-index]');
		if (!m) return;
		const i = Number(m.dataset.index);
		if (source === 'recording') {
			scrubTo(decisions[i].tick);
			return;
		}
		shownDecision = i;
		clicked = true;
		showTimeline();
	});
	$('pause').addEventListener('click', () => command('pause'));
	$('step').addEventListener('click', () => command('step'));
	$('resume').addEventListener('click', () => command('resume'));
	$('bp-plan').addEventListener('change', (e) => toggleBreakpoint('plan', e.target.checked));
	$('bp-goal').addEventListener('change', (e) => toggleBreakpoint('goal', e.target.checked));
	$('bp-action').addEventListener('change', (e) => {
		if (e.target.value) setBreakpoint('action', e.target.value);
	});
	$('open-file').addEventListener('change', (e) => {
		if (e.target.files.length) openFile(e.target.files[0]);
	});
	$('back-live').addEventListener('click', backToLive);
	$('scrub').addEventListener('input', (e) => scrubTo(Number(e.target.value)));
	$('scrub-prev').addEventListener('click', () => {
		const earlier = rec.ticks.filter((t) => t < tick);
		if (earlier.length) scrubTo(earlier[earlier.length - 1]);
	});
	$('scrub-next').addEventListener('click', () => {
		const later = rec.ticks.find((t) => t > tick);
		if (later !== undefined) scrubTo(later);
	});
	$('record').href = '/api/v1/recording?client=' + encodeURIComponent(client);

	if (mode === 'replay') {
		game.dataset.source = 'recording';
		fetch('/api/v1/recording').then(async (r) => {
			if (!r.ok) throw new Error('the recording: ' + r.status + ' ' + r.statusText);
			useRecording(parseRecording(await r.text(), document.body.dataset.recording || 'the recording'));
		}).catch((e) => showError(e.message));
		return;
	}
	game.dataset.source = 'live';
	statusOptions(liveStatuses);
	ask('state').then((s) => {
		showState(s);
		// A heartbeat well within the inspector's timeout, besides the
		// event stream: the page's breakpoints hold while the tab is open,
		// even when the stream is refused (the inspector's MaxStreams).
		heartbeat(Math.max(1000, Math.floor(s.heartbeat_ms / 3)));
		openEvents();
		schedule();
	}, (e) => showError(e.message));
})();
