// Figure 8, the resolver (seed 003): an engine-model domain's action graph
// (POST /api/v1/graph, `ploy graph --format json`) laid out by dagre and
// drawn by graph.js (as the inspector draws a resolver agent's resolve), and
// on every change of the snapshot a traced resolve (POST /api/v1/trace,
// `ploy trace --format json` on a keys: file): the chain accented and
// numbered head first, the actions weighed and not taken accented with
// their reasons (the trace's "considered" records, what seed 003 says the
// editor's viewer accents).
'use strict';

(function () {
	const $ = (id) => document.getElementById(id);
	const { html, number, api } = ploy;
	const figure = $('resolver-figure');
	// Past this many nodes or edges the layout takes seconds and the
	// drawing is a blur (a keys: file may have 2^20 edges): the chain and
	// the summary still show, the graph says why it is missing.
	const maxNodes = 400, maxEdges = 2000;
	const domains = new Map(); // name -> the API's description
	const graphs = new Map(); // name -> {graph: the API's answer, layout, svg parts}
	const ask = ploy.newest(figure);
	let shown = null; // {graph, trace} on screen
	let selected = ''; // the action clicked

	function chip(cls, label, input) {
		const l = html('label', cls);
		l.append(input, label);
		return l;
	}

	function numberInput(value, data) {
		const i = document.createElement('input');
		i.type = 'number';
		i.step = '1';
		i.value = String(value);
		Object.assign(i.dataset, data);
		return i;
	}

	// chosenGoal is the goal picker's value that lets the agent kind
	// choose (the request then names no goal, as ploy resolve --agent).
	const chosenGoal = '';

	// showDomain builds the goal and kind pickers and the snapshot's
	// editor from the file's own snapshot: a toggle per boolean key, a
	// number per integer key, the agent's and each target's position (and
	// whether its sensor finds it), a toggle per action.
	function showDomain() {
		const d = domains.get($('resolver-domain').value);
		if (!d) return;
		const none = html('option', '', 'none: the file\'s costs');
		none.value = '';
		$('resolver-kind').replaceChildren(none, ...(d.agents || []).map((k) => {
			const o = html('option', '', k.name);
			o.value = k.name;
			o.title = k.title;
			return o;
		}));
		$('resolver-kind').disabled = !(d.agents || []).length;
		kindBefore = '';
		showGoals();
		const keys = $('resolver-keys');
		keys.replaceChildren(...d.keys.map((k) => {
			if (k.kind === 'bool') {
				const box = document.createElement('input');
				box.type = 'checkbox';
				box.dataset.key = k.name;
				box.checked = d.world.values[k.name] === 1;
				return chip('fact', k.name, box);
			}
			const l = html('label', 'fact number', k.name + ' ');
			l.append(numberInput(d.world.values[k.name], { key: k.name }));
			return l;
		}));
		const places = [['the agent', 'at', d.world.at]];
		for (const name of Object.keys(d.world.targets).sort()) places.push([name, 'target', d.world.targets[name]]);
		$('resolver-places').replaceChildren(...places.map(([label, kind, xy]) => {
			const row = html('span', 'place');
			row.dataset.place = kind === 'at' ? '' : label;
			if (kind === 'target') {
				// Unticked: the sensor finds nothing (--target NAME=none).
				const found = document.createElement('input');
				found.type = 'checkbox';
				found.checked = true;
				found.className = 'found';
				found.title = 'the sensor finds ' + label;
				found.dataset.found = label;
				row.append(found);
			}
			row.append(html('span', 'hint', label + ' at '),
				numberInput(xy[0], { axis: '0' }), html('span', 'hint', ','), numberInput(xy[1], { axis: '1' }));
			return row;
		}));
		$('resolver-capabilities').replaceChildren(...d.world.actions.map((a) => {
			const box = document.createElement('input');
			box.type = 'checkbox';
			box.dataset.action = a;
			box.checked = true;
			return chip('fact', a, box);
		}));
		showKind();
	}

	// kindOf is the agent kind picked, or undefined.
	function kindOf() {
		const d = domains.get($('resolver-domain').value);
		const name = $('resolver-kind').value;
		return name ? (d.agents || []).find((k) => k.name === name) : undefined;
	}

	// showGoals fills the goal picker: with a kind picked, the kind's
	// choice first (and chosen), then the file's goals.
	function showGoals() {
		const d = domains.get($('resolver-domain').value);
		const was = $('resolver-goal').value;
		const options = d.goals.map((g) => ploy.option(g));
		if ($('resolver-kind').value) {
			const o = html('option', '', 'the kind\'s choice');
			o.value = chosenGoal;
			options.unshift(o);
		}
		$('resolver-goal').replaceChildren(...options);
		if ([...$('resolver-goal').options].some((o) => o.value === was)) $('resolver-goal').value = was;
	}

	// showKind says what the kind picked changes: its cost overrides
	// beside the file's costs, and its capabilities, which replace the
	// capabilities toggles (a kind's are its own).
	function showKind() {
		const k = kindOf();
		const note = $('resolver-kind-note');
		for (const box of $('resolver-capabilities').querySelectorAll('input[data-action]')) {
			// Leaving a kind: every action again, as the file has it.
			if (!k && box.disabled) box.checked = true;
			box.disabled = !!k;
			if (k) box.checked = !k.capabilities || k.capabilities.includes(box.dataset.action);
		}
		if (!k) {
			note.hidden = true;
			note.replaceChildren();
			return;
		}
		const parts = [html('span', '', k.title + ': ')];
		if (k.costs.length === 0) parts.push(html('span', '', 'the file\'s costs'));
		k.costs.forEach((c, i) => {
			if (i > 0) parts.push(html('span', '', ' · '));
			const o = html('span', 'override', c.action + ' costs ' + number(c.cost));
			o.dataset.action = c.action;
			parts.push(o, html('span', '', ' (the file: ' + number(c.base) + ')'));
		});
		const d = domains.get($('resolver-domain').value);
		parts.push(html('span', '', k.capabilities ? '; can do ' + k.capabilities.length + ' of ' + d.world.actions.length + ' actions' : '; can do every action'));
		note.replaceChildren(...parts);
		note.hidden = false;
	}

	// request is the resolve request for the controls: only what differs
	// from the file's snapshot, as `ploy resolve --set/--at/--target` takes it.
	function request() {
		const d = domains.get($('resolver-domain').value);
		const q = { domain: d.name, goal: $('resolver-goal').value, set: [], unset: [] };
		const kind = $('resolver-kind').value;
		if (kind) q.agent = kind; // its capabilities and costs; without a goal, its choice
		if (q.goal === chosenGoal) delete q.goal;
		for (const input of $('resolver-keys').querySelectorAll('input[data-key]')) {
			const name = input.dataset.key;
			if (input.type === 'checkbox') {
				const was = d.world.values[name] === 1;
				if (input.checked && !was) q.set.push(name);
				if (!input.checked && was) q.unset.push(name);
			} else if (input.value !== String(d.world.values[name])) {
				q.set.push(name + '=' + input.value);
			}
		}
		for (const row of $('resolver-places').querySelectorAll('.place')) {
			const xy = [...row.querySelectorAll('input[type=number]')].map((i) => i.valueAsNumber);
			const name = row.dataset.place;
			const found = row.querySelector('input[data-found]');
			row.classList.toggle('lost', !!found && !found.checked);
			if (found && !found.checked) {
				(q.targets = q.targets || {})[name] = null; // the sensor finds nothing
				continue;
			}
			// An empty box would go as null, which JSON decoding leaves at 0.
			if (xy.some((v) => !Number.isFinite(v))) q.invalid = (name || 'the agent') + ' needs two numbers for its position';
			const was = name === '' ? d.world.at : d.world.targets[name];
			if (xy[0] === was[0] && xy[1] === was[1]) continue;
			if (name === '') q.at = xy;
			else (q.targets = q.targets || {})[name] = xy;
		}
		const capable = [...$('resolver-capabilities').querySelectorAll('input:checked')].map((b) => b.dataset.action);
		if (!kind && capable.length < d.world.actions.length) q.capabilities = capable;
		return q;
	}

	// nodeId keeps goals and actions apart in the layout: a goal may share
	// an action's name.
	const actionNode = (name) => 'a:' + name;
	const goalNode = (name) => 'g:' + name;

	// spec is graph.js's drawing of the goals and actions, an edge per
	// (server, condition served), laid out rankdir.
	function spec(graph, rankdir) {
		const width = (text) => 7.2 * text.length + 34;
		const nodes = [];
		for (const goal of graph.goals) nodes.push({ id: goalNode(goal.name), width: width(goal.name), height: 30, cls: 'goal-node', label: goal.name, note: '', rx: 14, data: { goal: goal.name } });
		for (const a of graph.actions) nodes.push({ id: actionNode(a.name), width: width(a.name), height: 40, cls: 'action-node', label: a.name, note: '', y: -3, data: { action: a.name } });
		// An edge runs from the server to what it serves; its name (the
		// condition) keeps two edges between one pair apart.
		const edges = graph.edges.map((e) => Object.assign({}, e, {
			from: actionNode(e.from), to: e.goal ? goalNode(e.to) : actionNode(e.to), name: e.condition, label: e.condition,
			width: 6.2 * e.condition.length + 6, height: 16, labelpos: rankdir === 'TB' ? 'r' : 'c', arrow: 'resolver-arrow',
			server: e.from, served: e.to,
		}));
		return {
			graph: { rankdir, nodesep: 14, ranksep: 40, edgesep: 8, marginx: 6, marginy: 6 }, nodes, edges,
			aria: 'the action graph', cls: ['action-graph'], arrows: 'resolver-arrow',
			// Small graphs are drawn larger than the layout's units, for
			// reading.
			scale: rankdir === 'TB' ? 1 : 1.3,
		};
	}

	// draw lays out and draws a domain's action graph once (graph.js);
	// each resolve only changes classes and labels.
	function draw(name, graph) {
		if (graph.actions.length + graph.goals.length > maxNodes || graph.edges.length > maxEdges) {
			graphs.set(name, { graph, parts: null });
			return;
		}
		// Left to right: a chain reads head first, towards the goal; a
		// long thin graph (a single ladder of actions) goes top down
		// instead, so that its labels stay legible.
		let parts = ployGraph.draw(spec(graph, 'LR'));
		if (parts.size.width > 600 && parts.size.width > 3 * parts.size.height) parts = ployGraph.draw(spec(graph, 'TB'));
		// The edges as the API gave them, which the resolve accents.
		parts.edges = parts.edges.map(({ edge, group }) => ({ edge: { from: edge.server, to: edge.served, goal: edge.goal, condition: edge.condition }, group }));
		graphs.set(name, { graph, parts });
	}

	// verdicts sorts the trace's records by action: each action in the
	// chain gets its place, each other action weighed its records and a
	// short reason.
	function verdicts(trace) {
		const chain = trace.status === 'found' ? trace.plan : [];
		const out = new Map();
		for (const c of trace.considered) {
			if (!out.has(c.action)) out.set(c.action, { records: [] });
			out.get(c.action).records.push(c);
		}
		for (const [action, v] of out) {
			if (chain.includes(action)) continue;
			// The reason shown on the node: the first that is not a
			// complete chain beaten; else the beaten chain's cost.
			const r = v.records.find((c) => c.reason !== 'candidate') || v.records[0];
			v.reason = r.reason === 'candidate' ? 'chain cost ' + number(r.cost) + ' > ' + number(trace.cost)
				: r.reason === 'conditions unmet' ? 'unmet: ' + r.unmet.join(', ')
					: r.reason;
		}
		return out;
	}

	// chainEdges finds, for each link of the chain, the condition it
	// served: the trace's record of that action put in front of the rest
	// of the chain.
	function chainEdges(trace) {
		const out = new Set();
		if (trace.status !== 'found') return out;
		const plan = trace.plan;
		for (let i = 0; i < plan.length; i++) {
			const rest = plan.slice(i + 1).join('\u0000');
			const rec = trace.considered.find((c) => c.action === plan[i] && trace.nodes[c.node].chain.join('\u0000') === rest);
			if (!rec) continue;
			const to = i + 1 < plan.length ? 'a:' + plan[i + 1] : 'g:' + trace.goal;
			out.add(plan[i] + '\u0000' + to + '\u0000' + rec.serves);
		}
		return out;
	}

	// show accents the graph for a resolve and writes the summary.
	function show(name, trace, why) {
		const { graph, parts } = graphs.get(name);
		const kind = kindOf();
		const chosen = $('resolver-goal').value === chosenGoal;
		shown = { name, graph, trace, why, verdicts: verdicts(trace) };
		const chain = trace.status === 'found' ? trace.plan : [];
		if (!parts) {
			$('resolver-graph').replaceChildren(html('p', 'hint', (graph.actions.length + graph.goals.length) + ' actions and goals, ' +
				graph.edges.length + ' edges: too many to draw (at most ' + maxNodes + ' and ' + maxEdges + '); the chain is above'));
		} else {
			$('resolver-graph').replaceChildren(parts.svg);
		}
		for (const [id, n] of (parts ? parts.nodes : [])) {
			const g = n.group;
			const action = g.dataset.action;
			const step = action === undefined ? -1 : chain.indexOf(action);
			const v = action === undefined ? undefined : shown.verdicts.get(action);
			g.classList.toggle('chain', step >= 0);
			g.classList.toggle('rejected', step < 0 && v !== undefined);
			g.classList.toggle('unweighed', action !== undefined && step < 0 && v === undefined);
			g.classList.toggle('goal', g.dataset.goal === trace.goal);
			g.classList.toggle('selected', action !== undefined && action === selected);
			if (step >= 0) g.dataset.step = String(step + 1);
			else delete g.dataset.step;
			if (step < 0 && v) g.dataset.reason = v.reason;
			else delete g.dataset.reason;
			const override = action === undefined || !kind ? undefined : kind.costs.find((c) => c.action === action);
			g.classList.toggle('overridden', !!override);
			n.title.textContent = (step >= 0 ? (step + 1) + ' · ' : '') + (action || g.dataset.goal);
			n.note.textContent = step >= 0 ? (step === 0 ? 'head: runs now' : '') : v ? v.reason : '';
			if (!n.note.textContent && override) n.note.textContent = 'cost ' + number(override.cost) + ' (file ' + number(override.base) + ')';
		}
		const accented = chainEdges(trace);
		for (const { edge, group } of (parts ? parts.edges : [])) {
			const to = edge.goal ? 'g:' + edge.to : 'a:' + edge.to;
			const on = accented.has(edge.from + '\u0000' + to + '\u0000' + edge.condition);
			group.classList.toggle('chain', on);
			group.querySelector('polyline').setAttribute('marker-end', on ? 'url(#resolver-arrow-chain)' : 'url(#resolver-arrow)');
		}
		const summary = $('resolver-summary');
		const counts = trace.expanded + ' expanded · ' + trace.generated + ' generated';
		$('resolver-chain').replaceChildren(...chain.map(ploy.actionItem));
		$('resolver-why').hidden = true;
		// With a kind choosing, the goal it chose leads the summary.
		const as = kind ? (chosen ? 'agent ' + kind.name + '\'s choice: ' + trace.goal + ' · ' : 'as ' + kind.name + ' · ') : '';
		if (trace.status === 'found') {
			summary.className = 'summary';
			summary.textContent = as + (chain.length === 0 ? 'the goal holds already: nothing to do · ' + counts
				: 'depth ' + chain.length + ' · cost ' + number(trace.cost) + ' · ' + counts);
		} else {
			summary.className = 'summary none';
			summary.textContent = as + 'no chain: ' + trace.status.replace('_', ' ') + ' · ' + counts;
			if (why && why.length) {
				$('resolver-why-list').replaceChildren(...why.map((w) => html('li', '', w)));
				$('resolver-why').hidden = false;
			}
		}
		showAction(selected);
	}

	// showAction puts an action's conditions and the trace's records of it
	// in the side panel.
	function showAction(action) {
		const box = $('resolver-node');
		box.dataset.action = action || '';
		if (!shown || !action) {
			box.replaceChildren(html('p', 'hint', 'Point at or click an action to see what the resolve made of it.'));
			return;
		}
		const a = shown.graph.actions.find((x) => x.name === action);
		if (!a) return;
		const chain = shown.trace.status === 'found' ? shown.trace.plan : [];
		const step = chain.indexOf(action);
		const parts = [html('p', 'node-title', action + (step >= 0 ? ' · step ' + (step + 1) + ' of the chain' : ''))];
		parts.push(html('p', 'hint', a.target ? 'target: ' + a.target : 'no target: where the agent stands'));
		const kind = kindOf();
		const override = kind && kind.costs.find((c) => c.action === action);
		if (override) parts.push(html('p', 'hint', 'cost ' + number(override.cost) + ' for ' + kind.name + ' (the file\'s: ' + number(override.base) + ')'));
		parts.push(html('p', 'hint', a.conditions.length ? 'conditions: ' + a.conditions.map((c) => c.condition).join(', ') : 'no conditions'));
		const v = shown.verdicts.get(action);
		const list = html('ul', 'node-facts resolver-records');
		for (const c of (v ? v.records : [])) {
			const front = shown.trace.nodes[c.node].chain;
			const li = html('li', 'record');
			li.dataset.reason = c.reason;
			li.textContent = 'before ' + (front.length ? front.join(' → ') : 'the goal') + ', serving ' + c.serves + ': ' + c.reason +
				(c.cost !== null ? ' · cost ' + number(c.cost) : '') + (c.unmet.length ? ' · unmet ' + c.unmet.join(', ') : '') +
				(c.reason === 'candidate' && step < 0 && shown.trace.status === 'found' ? ' (a complete chain; the one taken costs ' + number(shown.trace.cost) + ')' : '');
			list.append(li);
		}
		if (!v) list.append(html('li', 'hint', 'not weighed: nothing in front of it needed what it does'));
		parts.push(html('p', 'hint', 'the trace:'), list);
		box.replaceChildren(...parts);
	}

	// resolve resolves the controls' snapshot and shows it, unless a newer
	// change came meanwhile. started is when the user acted, for the
	// figure's own timing (data-ms: to the frame that draws the answer).
	async function resolve(started) {
		const name = $('resolver-domain').value;
		const q = request();
		const reply = await ask(async (signal) => {
			if (q.capabilities && q.capabilities.length === 0) throw new Error('no action is capable: give this agent at least one');
			if (q.invalid) throw new Error(q.invalid);
			if (!graphs.has(name)) draw(name, await api('graph', { domain: name }, signal));
			const trace = await api('trace', q, signal);
			if (trace.status === 'found') return { trace };
			return { trace, why: (await api('explain', Object.assign({ alternatives: 0 }, q), signal)).why };
		});
		if (!reply) return;
		const { seq, value, error } = reply;
		ploy.showError($('resolver-error'), error);
		if (error) {
			$('resolver-summary').className = 'summary none';
			$('resolver-summary').textContent = 'no answer';
			$('resolver-chain').replaceChildren();
		} else {
			show(name, value.trace, value.why);
		}
		figure.dataset.seq = String(seq);
		if (typeof started === 'number') requestAnimationFrame(() => { figure.dataset.ms = (performance.now() - started).toFixed(2); });
	}

	$('resolver-domain').addEventListener('change', () => {
		const started = performance.now();
		selected = '';
		showDomain();
		resolve(started);
	});
	$('resolver-reset').addEventListener('click', () => {
		const started = performance.now();
		const goal = $('resolver-goal').value, kind = $('resolver-kind').value;
		showDomain();
		$('resolver-kind').value = kind;
		showGoals();
		showKind();
		$('resolver-goal').value = goal;
		resolve(started);
	});
	let kindBefore = '';
	$('resolver-kind').addEventListener('change', () => {
		const started = performance.now();
		showGoals();
		// A kind picked where there was none chooses its goal, as ploy
		// resolve --agent does without --goal; from kind to kind the goal
		// stays, so that their chains compare.
		if (!kindBefore && $('resolver-kind').value) $('resolver-goal').value = chosenGoal;
		kindBefore = $('resolver-kind').value;
		showKind();
		resolve(started);
	});
	for (const id of ['resolver-goal', 'resolver-keys', 'resolver-places', 'resolver-capabilities']) {
		$(id).addEventListener('change', () => resolve(performance.now()));
	}
	const box = $('resolver-graph');
	const actionOf = (e) => {
		const g = e.target.closest && e.target.closest('g.action-node');
		return g ? g.dataset.action : '';
	};
	box.addEventListener('mouseover', (e) => {
		const a = actionOf(e);
		if (a) showAction(a);
	});
	box.addEventListener('mouseleave', () => showAction(selected));
	box.addEventListener('click', (e) => {
		selected = actionOf(e);
		if (shown) show(shown.name, shown.trace, shown.why);
	});

	(async () => {
		try {
			for (const d of (await api('domains')).domains) if (d.kind === 'engine-model') domains.set(d.name, d);
		} catch (e) {
			$('resolver-summary').textContent = 'cannot list the domains: ' + e.message;
			return;
		}
		if (domains.size === 0) {
			$('resolver-summary').textContent = 'no engine-model domain (keys:) is offered';
			return;
		}
		showDomain();
		resolve();
	})();
})();
