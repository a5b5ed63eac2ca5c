// Figure 2, the search (seed 001 fig. 2; lesson 4 "play the search, or
// step through it one expansion at a time"): the trace of figure 1's
// problem (POST /api/v1/trace, `ploy trace --format json`), its state graph
// laid out by dagre (vendored, dagre.min.js) and drawn as SVG, and the
// expansions played one at a time.
'use strict';

(function () {
	const $ = (id) => document.getElementById(id);
	const figure = $('search-figure');
	const svgNS = 'http://www.w3.org/2000/svg';
	// Past this many nodes the layout takes seconds and the drawing is a
	// blur: the step panel still works, the graph says why it is missing.
	const maxDrawn = 600;
	const playEvery = 450; // ms between expansions when playing

	let latest = 0; // the newest trace request
	let inFlight = null;
	let trace = null; // the answer on screen
	let step = 0; // expansions applied, 0 to trace.expansions.length
	let timer = null; // set while playing
	let selected = -1; // the node clicked, or -1
	let drawn = null; // node id -> {g: the SVG group}, edge child id -> SVG group

	function el(name, attrs, text) {
		const e = document.createElementNS(svgNS, name);
		for (const [k, v] of Object.entries(attrs || {})) e.setAttribute(k, v);
		if (text !== undefined) e.textContent = text;
		return e;
	}

	function html(name, cls, text) {
		const e = document.createElement(name);
		if (cls) e.className = cls;
		if (text !== undefined) e.textContent = text;
		return e;
	}

	function number(x) {
		return Number.isInteger(x) ? String(x) : x.toFixed(2).replace(/\.?0+$/, '');
	}

	// factsOf is a node's state: its facts (forward) or the facts it still
	// needs (backward).
	function factsOf(n) {
		if (n.facts) return n.facts;
		// Backward: {"fact": true or false}, each fact the state must have
		// true or false.
		return Object.entries(n.needs || {}).map(([f, v]) => v ? f : 'not ' + f);
	}

	// layout places the nodes and the edges (one per generated successor,
	// labelled with its action) with dagre's layered layout.
	function layout(t) {
		const g = new dagre.graphlib.Graph();
		// Left to right: a search is shallow and wide, and an action's name
		// reads along its edge.
		g.setGraph({ rankdir: 'LR', nodesep: 6, ranksep: 10, edgesep: 4, marginx: 4, marginy: 4 });
		g.setDefaultEdgeLabel(() => ({}));
		for (const n of t.nodes) {
			g.setNode(String(n.id), { width: 30 + 7 * String(n.id).length, height: 22 });
		}
		for (const n of t.nodes) {
			if (n.parent >= 0) {
				g.setEdge(String(n.parent), String(n.id), { width: 6.2 * (n.action || '').length + 8, height: 18, labelpos: 'c' });
			}
		}
		dagre.layout(g);
		return g;
	}

	// draw builds the SVG of the whole graph once per trace; stepping only
	// changes classes.
	function draw(t) {
		const box = $('search-graph');
		drawn = null;
		if (t.nodes.length > maxDrawn) {
			box.replaceChildren(html('p', 'hint', t.nodes.length + ' states: too many to draw (at most ' + maxDrawn + '); step through them below'));
			return;
		}
		const g = layout(t);
		const size = g.graph();
		const svg = el('svg', { viewBox: '0 0 ' + Math.ceil(size.width) + ' ' + Math.ceil(size.height), role: 'img', 'aria-label': 'the search graph' });
		svg.classList.add('graph');
		// Wide graphs shrink to the page; small ones keep their size.
		svg.setAttribute('width', String(Math.min(Math.ceil(size.width), 880)));
		const edges = el('g'), nodes = el('g');
		drawn = { nodes: new Map(), edges: new Map() };
		for (const n of t.nodes) {
			if (n.parent < 0) continue;
			const e = g.edge(String(n.parent), String(n.id));
			const group = el('g', { class: 'edge' });
			group.append(el('polyline', { points: e.points.map((p) => p.x.toFixed(1) + ',' + p.y.toFixed(1)).join(' ') }));
			// Just above the line, which runs through the label's centre.
			group.append(el('text', { x: e.x.toFixed(1), y: (e.y - 3).toFixed(1) }, n.action || ''));
			edges.append(group);
			drawn.edges.set(n.id, group);
		}
		for (const n of t.nodes) {
			const p = g.node(String(n.id));
			const group = el('g', { class: 'node', transform: 'translate(' + p.x.toFixed(1) + ',' + p.y.toFixed(1) + ')', tabindex: '0' });
			group.dataset.node = String(n.id);
			group.append(el('title', {}, '#' + n.id + ' ' + (factsOf(n).join(', ') || '(no facts)')));
			group.append(el('rect', { x: -p.width / 2, y: -p.height / 2, width: p.width, height: p.height, rx: 5 }));
			group.append(el('text', { y: 4 }, '#' + n.id));
			nodes.append(group);
			drawn.nodes.set(n.id, group);
		}
		svg.append(edges, nodes);
		box.replaceChildren(svg);
	}

	// seen returns, after k expansions, the nodes generated so far (the
	// start included) and those expanded.
	function seen(t, k) {
		const visible = new Set(t.nodes.length ? [0] : []);
		const expanded = new Set();
		for (let i = 0; i < k; i++) {
			const x = t.expansions[i];
			expanded.add(x.node);
			for (const a of x.actions) if (a.outcome === 'generated' && a.node !== undefined) visible.add(a.node);
		}
		return { visible, expanded };
	}

	// openList counts the open list after k expansions: the nodes generated
	// and not yet expanded, less those a later, cheaper node of the same
	// state made stale (the search skips them when it takes them).
	function openList(t, visible, expanded) {
		const best = new Map(); // state -> the cheapest node of it generated so far
		for (const id of [...visible].sort((a, b) => a - b)) {
			const n = t.nodes[id];
			const key = factsOf(n).slice().sort().join(',');
			const b = best.get(key);
			if (b === undefined || n.g < t.nodes[b].g) best.set(key, id);
		}
		let open = 0;
		for (const id of best.values()) if (!expanded.has(id)) open++;
		return open;
	}

	function gHF(n) {
		return 'g ' + number(n.g) + ' · h ' + number(n.h) + ' · f ' + number(n.f);
	}

	function via(t, n) {
		// A backward search starts from the goal and regresses through the
		// actions' effects.
		if (n.parent < 0) return t.search === 'backward' ? 'the goal' : 'the start';
		return n.action + ' from #' + n.parent;
	}

	// show draws step k: the classes of the nodes and edges, the state
	// taken, the open list and what became of every action.
	function show(k) {
		const t = trace;
		step = k;
		const total = t.expansions.length;
		const { visible, expanded } = seen(t, k);
		const taken = k > 0 ? t.expansions[k - 1].node : -1;
		const path = new Set(t.path || []);
		const done = k === total;
		if (drawn) {
			for (const [id, g] of drawn.nodes) {
				g.classList.toggle('unseen', !visible.has(id));
				g.classList.toggle('closed', expanded.has(id));
				g.classList.toggle('path', path.has(id));
				g.classList.toggle('taken', id === taken);
				g.classList.toggle('selected', id === selected);
				g.classList.toggle('goal', done && t.status === 'found' && id === t.path[t.path.length - 1]);
			}
			for (const [id, g] of drawn.edges) {
				g.classList.toggle('unseen', !visible.has(id));
				g.classList.toggle('path', path.has(id) && path.has(t.nodes[id].parent));
			}
		}
		const open = openList(t, visible, expanded);
		figure.dataset.step = String(k);
		figure.dataset.steps = String(total);
		figure.dataset.nodes = String(visible.size);
		figure.dataset.open = String(open);
		$('search-step').textContent = 'expansion ' + k + ' of ' + total + ' · ' + visible.size + ' of ' + t.nodes.length + ' states · open list ' + open;
		$('search-stepper').disabled = done;
		$('search-play').disabled = done;
		$('search-end-button').disabled = done;
		const took = $('search-took');
		const actions = $('search-actions');
		actions.replaceChildren();
		if (k === 0) {
			took.textContent = t.nodes.length
				? 'Before the first expansion: the open list holds ' + via(t, t.nodes[0]) + ', #0 (' + gHF(t.nodes[0]) + ').'
				: 'The search made no node.';
		} else {
			const n = t.nodes[taken];
			took.textContent = 'Took #' + taken + ' (' + via(t, n) + '): ' + gHF(n) + '.';
			for (const a of t.expansions[k - 1].actions) {
				const row = html('tr', a.outcome === 'generated' ? 'generated' : 'rejected');
				row.append(html('td', 'action', a.action), html('td', '', a.outcome === 'generated' ? '→ #' + a.node : a.outcome));
				actions.append(row);
			}
		}
		const end = $('search-end');
		end.textContent = '';
		if (done) {
			end.textContent = t.status === 'found'
				? 'Goal met at #' + t.path[t.path.length - 1] + ': cost ' + number(t.cost) + ', the path ' + t.path.map((id) => '#' + id).join(' → ') + ' in blue.'
				: 'No more states to take: ' + t.status.replace('_', ' ') + '.';
		}
		showNode(selected);
	}

	// showNode puts a node's facts in the side panel.
	function showNode(id) {
		const box = $('search-node');
		if (!trace || id < 0 || id >= trace.nodes.length) {
			box.replaceChildren(html('p', 'hint', 'Point at or click a state to see its facts.'));
			return;
		}
		const n = trace.nodes[id];
		const title = html('p', 'node-title', '#' + id + ' · ' + via(trace, n) + ' · depth ' + n.depth);
		const costs = html('p', '', gHF(n));
		const facts = html('ul', 'node-facts');
		for (const f of factsOf(n)) facts.append(html('li', '', f));
		if (!factsOf(n).length) facts.append(html('li', 'hint', n.needs ? 'needs nothing' : 'no fact true'));
		box.replaceChildren(title, costs, html('p', 'hint', n.needs ? 'needs:' : 'facts true:'), facts);
		box.dataset.node = String(id);
	}

	function pause() {
		if (timer !== null) clearInterval(timer);
		timer = null;
		figure.dataset.playing = 'false';
	}

	function play() {
		if (!trace || timer !== null) return;
		figure.dataset.playing = 'true';
		timer = setInterval(() => {
			if (step >= trace.expansions.length) {
				pause();
				return;
			}
			show(step + 1);
		}, playEvery);
	}

	// load traces figure 1's problem and shows it from its first step.
	async function load(q) {
		const seq = ++latest;
		figure.dataset.sent = String(seq);
		if (inFlight) inFlight.abort();
		const controller = inFlight = new AbortController();
		pause();
		let t, error;
		try {
			const r = await fetch('/api/v1/trace', {
				method: 'POST',
				headers: { 'Content-Type': 'application/json' },
				body: JSON.stringify(q),
				signal: controller.signal,
			});
			const answer = await r.json();
			if (!r.ok) throw new Error(answer.error || ('trace: ' + r.status));
			t = answer;
		} catch (e) {
			if (e.name === 'AbortError') return;
			error = e.message;
		}
		if (seq !== latest) return;
		inFlight = null;
		$('search-error').hidden = !error;
		$('search-error').textContent = error || '';
		if (error) {
			trace = null;
			$('search-graph').replaceChildren();
			figure.dataset.seq = String(seq);
			return;
		}
		trace = t;
		selected = -1;
		draw(t);
		show(0);
		figure.dataset.seq = String(seq);
	}

	document.addEventListener('ploy:problem', (e) => load(e.detail));
	$('search-play').addEventListener('click', play);
	$('search-pause').addEventListener('click', pause);
	$('search-stepper').addEventListener('click', () => {
		pause();
		if (trace && step < trace.expansions.length) show(step + 1);
	});
	$('search-end-button').addEventListener('click', () => {
		pause();
		if (trace) show(trace.expansions.length);
	});
	$('search-reset').addEventListener('click', () => {
		pause();
		if (trace) show(0);
	});
	const graph = $('search-graph');
	const nodeOf = (e) => {
		const g = e.target.closest && e.target.closest('g.node');
		return g ? Number(g.dataset.node) : -1;
	};
	graph.addEventListener('mouseover', (e) => {
		const id = nodeOf(e);
		if (id >= 0) showNode(id);
	});
	graph.addEventListener('mouseleave', () => showNode(selected));
	graph.addEventListener('click', (e) => {
		selected = nodeOf(e);
		if (trace) show(step);
	});
})();
