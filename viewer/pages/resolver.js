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

	// The figure's state is kept in the address's fragment beside figure
	// 1's, under keys of its own (#…&resolver=survivor.yaml&resolver.goal=Fed
	// &resolver.unset=has_wood&resolver.targets=wood_north:0,3;berries:none),
	// so that it can be linked to and survives a reload.
	// The address as the page opened: figure 1 rewrites its own keys as
	// soon as it has planned, perhaps before this figure has its domains.
	const opened = location.hash;
	const own = (key) => key === 'resolver' || key.startsWith('resolver.');

	function remember(q) {
		const p = new URLSearchParams(location.hash.slice(1));
		for (const key of [...p.keys()]) if (own(key)) p.delete(key);
		p.set('resolver', q.domain);
		if (q.goal !== undefined) p.set('resolver.goal', q.goal);
		if (q.agent) p.set('resolver.agent', q.agent);
		if (q.set.length) p.set('resolver.set', q.set.join(','));
		if (q.unset.length) p.set('resolver.unset', q.unset.join(','));
		if (q.at) p.set('resolver.at', q.at.join(','));
		if (q.targets) p.set('resolver.targets', Object.keys(q.targets).sort().map((t) => t + ':' + (q.targets[t] === null ? 'none' : q.targets[t].join(','))).join(';'));
		if (q.capabilities) p.set('resolver.can', q.capabilities.join(','));
		history.replaceState(history.state, '', '#' + p);
	}

	// recall sets the controls from the fragment; names the figure does
	// not offer are ignored. A fragment naming an engine-model domain as
	// figure 1's domain= (figure 1 plans only facts: files) opens it here.
	function recall(hash) {
		const p = new URLSearchParams(hash.slice(1));
		const name = p.get('resolver') || (domains.has(p.get('domain')) ? p.get('domain') : null);
		if (name !== null && domains.has(name)) $('resolver-domain').value = name;
		showDomain();
		const d = domains.get($('resolver-domain').value);
		const agent = p.get('resolver.agent');
		if (agent && (d.agents || []).some((k) => k.name === agent)) $('resolver-kind').value = agent;
		kindBefore = $('resolver-kind').value;
		showGoals();
		showKind();
		const goal = p.get('resolver.goal');
		if (goal !== null && [...$('resolver-goal').options].some((o) => o.value === goal)) $('resolver-goal').value = goal;
		else if ($('resolver-kind').value && p.has('resolver.agent') && goal === null) $('resolver-goal').value = chosenGoal;
		const list = (key) => (p.get(key) || '').split(',').filter((x) => x);
		const set = new Map(list('resolver.set').map((s) => { const [k, v] = s.split('='); return [k, v]; }));
		const unset = new Set(list('resolver.unset'));
		for (const input of $('resolver-keys').querySelectorAll('input[data-key]')) {
			const k = input.dataset.key;
			if (input.type === 'checkbox') {
				if (set.has(k)) input.checked = true;
				if (unset.has(k)) input.checked = false;
			} else if (set.get(k) !== undefined && /^-?\d+$/.test(set.get(k))) {
				input.value = set.get(k);
			}
		}
		const places = new Map();
		if (p.get('resolver.at')) places.set('', p.get('resolver.at'));
		for (const t of (p.get('resolver.targets') || '').split(';').filter((x) => x)) {
			const at = t.lastIndexOf(':');
			if (at > 0) places.set(t.slice(0, at), t.slice(at + 1));
		}
		for (const row of $('resolver-places').querySelectorAll('.place')) {
			const v = places.get(row.dataset.place);
			if (v === undefined) continue;
			const found = row.querySelector('input[data-found]');
			if (v === 'none' && found) {
				found.checked = false;
				continue;
			}
			const xy = v.split(',');
			if (xy.length !== 2 || !xy.every((n) => /^-?\d+(\.\d+)?$/.test(n))) continue;
			row.querySelectorAll('input[type=number]').forEach((i, axis) => { i.value = xy[axis]; });
		}
		if (p.has('resolver.can') && !$('resolver-kind').value) {
			const can = new Set(list('resolver.can'));
			for (const box of $('resolver-capabilities').querySelectorAll('input[data-action]')) box.checked = can.has(box.dataset.action);
		}
	}

	// nodeId keeps goals and actions apart in the layout: a goal may share
	// an action's name.
	const actionNode = (name) => 'a:' + name;
	const goalNode = (name) => 'g:' + name;

	// spec is graph.js's drawing of the goals and actions, an edge per
	// (server, condition served), laid out rankdir.
	function spec(graph, rankdir) {
		const width = (text) => 7.2 * text.length + 34;
		// An action's box is wide enough for its name and for the notes a
		// resolve writes under it: "unmet: " and its longest condition, a
		// beaten chain's costs. A longer note (several conditions unmet)
		// is shortened to the box when it is written (fitNote).
		const noteWidth = (text) => 6.1 * text.length + 12;
		const widest = (a) => Math.max(width(a.name), noteWidth('cost 99.99 > 99.99'),
			...a.conditions.map((c) => noteWidth('unmet: ' + c.condition)));
		const nodes = [];
		for (const goal of graph.goals) nodes.push({ id: goalNode(goal.name), width: width(goal.name), height: 30, cls: 'goal-node', label: goal.name, note: '', rx: 14, data: { goal: goal.name } });
		for (const a of graph.actions) nodes.push({ id: actionNode(a.name), width: widest(a), height: 40, cls: 'action-node', label: a.name, note: '', y: -3, data: { action: a.name } });
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
		};
	}

	// Zoom: the drawing's size on screen is the layout's times zoom, never
	// squeezed into the box (a 40-action graph squeezed into 560 px had
	// 4 px text); the box scrolls, and dragging the drawing pans it. At
	// zoom 1 a layout unit is a CSS pixel, so the smallest text (10 px in
	// style.css) is 10 px on screen; a small graph opens larger, up to
	// 1.3, as far as the box's width allows.
	const zoomSteps = [0.25, 0.35, 0.5, 0.7, 0.85, 1, 1.3, 1.6, 2, 2.5, 3];
	const maxOpenZoom = 1.3;
	let zoom = 1;

	function openZoom(size) {
		const room = $('resolver-graph').clientWidth - 12;
		return Math.max(1, Math.min(maxOpenZoom, room / size.width));
	}

	function applyZoom() {
		const entry = graphs.get($('resolver-domain').value);
		const parts = entry && entry.parts;
		$('resolver-zoom-level').textContent = Math.round(zoom * 100) + ' %';
		figure.dataset.zoom = String(zoom);
		if (!parts) return;
		parts.svg.setAttribute('width', String(Math.ceil(parts.size.width * zoom)));
		parts.svg.setAttribute('height', String(Math.ceil(parts.size.height * zoom)));
	}

	// setZoom zooms to z, keeping the point of the box at (x, y) (its
	// centre by default) where it is.
	function setZoom(z, x, y) {
		const box = $('resolver-graph');
		z = Math.min(zoomSteps[zoomSteps.length - 1], Math.max(zoomSteps[0], z));
		if (x === undefined) x = box.clientWidth / 2;
		if (y === undefined) y = box.clientHeight / 2;
		const fx = (box.scrollLeft + x) / zoom, fy = (box.scrollTop + y) / zoom;
		zoom = z;
		applyZoom();
		box.scrollLeft = fx * zoom - x;
		box.scrollTop = fy * zoom - y;
	}

	function stepZoom(dir) {
		const next = dir > 0 ? zoomSteps.find((z) => z > zoom + 1e-9) : [...zoomSteps].reverse().find((z) => z < zoom - 1e-9);
		if (next !== undefined) setZoom(next);
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
		// The size on screen is zoom's (applyZoom), not graph.js's fit.
		parts.svg.style.maxWidth = 'none';
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

	// fitNote shortens a node's note with "…" until it fits in its box
	// (the whole note is the node's tooltip and in the side panel).
	function fitNote(n) {
		const full = n.note.textContent;
		let tip = n.group.querySelector('title');
		if (!tip) {
			tip = ploy.svg('title');
			n.group.prepend(tip);
		}
		const v = shown.verdicts.get(n.group.dataset.action);
		const reason = v && v.reason ? v.reason : full;
		tip.textContent = reason ? n.title.textContent + ': ' + reason : n.title.textContent;
		const room = n.at.width - 8;
		if (!full || n.note.getComputedTextLength() <= room) return;
		let keep = full.length;
		while (keep > 1 && n.note.getComputedTextLength() > room) n.note.textContent = full.slice(0, --keep).trimEnd() + '…';
	}

	// show accents the graph for a resolve and writes the summary.
	function show(name, trace, why) {
		const { graph, parts } = graphs.get(name);
		const kind = kindOf();
		const chosen = $('resolver-goal').value === chosenGoal;
		const before = shown;
		shown = { name, graph, trace, why, verdicts: verdicts(trace) };
		const chain = trace.status === 'found' ? trace.plan : [];
		const fresh = !before || before.name !== name;
		if (!parts) {
			$('resolver-graph').replaceChildren(html('p', 'hint', (graph.actions.length + graph.goals.length) + ' actions and goals, ' +
				graph.edges.length + ' edges: too many to draw (at most ' + maxNodes + ' and ' + maxEdges + '); the chain is above'));
		} else if (fresh || parts.svg.parentNode !== $('resolver-graph')) {
			$('resolver-graph').replaceChildren(parts.svg);
			// A domain's graph opens at its reading size, from its start.
			zoom = openZoom(parts.size);
			applyZoom();
			$('resolver-graph').scrollLeft = 0;
			$('resolver-graph').scrollTop = 0;
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
			// On the node a beaten chain reads "cost 16.83 > 9.4" (its colour
			// says weighed, not taken), short enough for the box; the
			// reason in full is the tooltip's and the side panel's.
			n.note.textContent = step >= 0 ? (step === 0 ? 'head: runs now' : '') : v ? v.reason.replace(/^chain cost /, 'cost ') : '';
			if (!n.note.textContent && override) n.note.textContent = 'cost ' + number(override.cost) + ' (file ' + number(override.base) + ')';
			fitNote(n);
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
		remember(q);
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
	$('resolver-zoom-in').addEventListener('click', () => stepZoom(1));
	$('resolver-zoom-out').addEventListener('click', () => stepZoom(-1));
	$('resolver-zoom-one').addEventListener('click', () => setZoom(1));
	$('resolver-zoom-fit').addEventListener('click', () => {
		const parts = (graphs.get($('resolver-domain').value) || {}).parts;
		if (!parts) return;
		const b = $('resolver-graph');
		setZoom(Math.min((b.clientWidth - 12) / parts.size.width, (b.clientHeight - 12) / parts.size.height, maxOpenZoom));
		b.scrollLeft = 0;
		b.scrollTop = 0;
	});
	const box = $('resolver-graph');
	box.addEventListener('wheel', (e) => {
		if (!e.ctrlKey) return; // a plain wheel scrolls the box
		e.preventDefault();
		const r = box.getBoundingClientRect();
		setZoom(zoom * (e.deltaY < 0 ? 1.15 : 1 / 1.15), e.clientX - r.left, e.clientY - r.top);
	}, { passive: false });
	// Dragging pans: the box scrolls by the pointer's movement. A drag
	// that moved is not a click on the action under it.
	let drag = null;
	box.addEventListener('pointerdown', (e) => {
		if (e.button !== 0) return;
		delete box.dataset.dragged; // a drag whose click never came
		drag = { x: e.clientX, y: e.clientY, left: box.scrollLeft, top: box.scrollTop, moved: false };
	});
	box.addEventListener('pointermove', (e) => {
		if (!drag) return;
		const dx = e.clientX - drag.x, dy = e.clientY - drag.y;
		if (!drag.moved && Math.abs(dx) + Math.abs(dy) < 4) return;
		if (!drag.moved) box.setPointerCapture(e.pointerId);
		drag.moved = true;
		box.classList.add('panning');
		box.scrollLeft = drag.left - dx;
		box.scrollTop = drag.top - dy;
	});
	const endDrag = () => {
		box.classList.remove('panning');
		if (drag && drag.moved) box.dataset.dragged = '1';
		drag = null;
	};
	box.addEventListener('pointerup', endDrag);
	box.addEventListener('pointercancel', endDrag);
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
		if (box.dataset.dragged) {
			delete box.dataset.dragged;
			return;
		}
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
		recall(opened);
		resolve();
	})();
	// A link followed or an address edited by hand (replaceState fires no
	// hashchange): figure 8's keys, when the fragment has them.
	// The fragment as followed (e.newURL): figure 1 may have rewritten its
	// own keys already.
	window.addEventListener('hashchange', (e) => {
		const hash = new URL(e.newURL).hash;
		const p = new URLSearchParams(hash.slice(1));
		if (domains.size === 0 || ![...p.keys()].some(own) && !domains.has(p.get('domain'))) return;
		selected = '';
		recall(hash);
		resolve(performance.now());
	});
})();
