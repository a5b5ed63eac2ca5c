// Figure 3, the HTN (lesson 5 "step through it"): the decomposition of
// the domain's root task from figure 1's start state, as `ploy trace
// --htn` records it, with the task list and the predicted facts after
// each row (POST /api/v1/decomposition), one row of the trace per click:
// tasks taken, methods tested, backtracks undoing what they unwind, and
// the plan as it stands.
'use strict';

(function () {
	const $ = (id) => document.getElementById(id);
	const { html, plural } = ploy;
	const el = ploy.svg;
	const figure = $('htn-figure');
	const ask = ploy.newest(figure);
	let trace = null;
	let shown = 0; // rows of the trace on screen

	// compound says whether row i takes a compound task: its methods are
	// tested next. A primitive task's row says whether its preconditions
	// held.
	function compound(rows, i) {
		const next = rows[i + 1];
		return next !== undefined && next.kind === 'test' && next.task === rows[i].task;
	}

	// replay runs the first k rows: which are undone by a later backtrack
	// among them, and the plan they leave.
	function replay(rows, k) {
		const undone = new Set();
		const choices = []; // {row, plan length} per method chosen
		const plan = [];
		for (let i = 0; i < k; i++) {
			const r = rows[i];
			if (r.kind === 'test' && r.holds) {
				choices.push({ row: i, task: r.task, number: r.number, length: plan.length });
			} else if (r.kind === 'take' && r.holds && !compound(rows, i)) {
				plan.push(r.task);
			} else if (r.kind === 'backtrack') {
				// Unwind to the choice backed out of, undoing every row
				// since it.
				while (choices.length) {
					const c = choices.pop();
					if (c.task === r.task && c.number === r.number) {
						// A backtrack among them stays: it happened, and
						// it undid nothing that this one brings back.
						for (let j = c.row; j < i; j++) if (rows[j].kind !== 'backtrack') undone.add(j);
						plan.length = c.length;
						break;
					}
				}
			}
		}
		return { undone, plan };
	}

	function describe(rows, i) {
		const r = rows[i];
		switch (r.kind) {
		case 'take':
			if (compound(rows, i)) return 'take ' + r.task + ': try its methods in order';
			return 'take ' + r.task + (r.holds ? ': its preconditions hold on the predicted facts, into the plan' : ': its preconditions fail, this branch cannot work');
		case 'test':
			return r.task + ', method ' + r.number + ' ' + r.method + (r.holds ? ': condition holds, its subtasks go first' : ': condition fails');
		case 'backtrack':
			return 'backtrack: undo ' + r.task + "'s " + r.method + ' (' + r.number + ') and what followed it';
		default:
			return r.kind + ' ' + r.task;
		}
	}

	// tree returns the decomposition the first k rows leave, the rows a
	// backtrack undid left out: one node per task taken, a compound task's
	// method chosen beside it, its subtasks under it, in order.
	function tree(rows, k, undone) {
		const nodes = [];
		const at = []; // depth -> the compound task's node at that depth
		for (let i = 0; i < k; i++) {
			const r = rows[i];
			if (undone.has(i)) continue;
			if (r.kind === 'take') {
				const depth = r.depth || 0;
				const n = { row: i, task: r.task, primitive: !compound(rows, i), holds: r.holds, method: null, parent: depth > 0 && at[depth - 1] ? at[depth - 1].row : -1 };
				nodes.push(n);
				at[depth] = n;
				at.length = depth + 1;
			} else if (r.kind === 'test' && r.holds && at[r.depth || 0] && at[r.depth || 0].task === r.task) {
				at[r.depth || 0].method = { number: r.number, name: r.method };
			}
		}
		return nodes;
	}

	// layoutTree places the tree top-down, a task's subtasks left to right
	// in their order under it (a layered layout such as dagre's may swap
	// siblings, and their order is the plan's): each leaf takes the next
	// slot, each parent is centred over its children.
	function layoutTree(nodes, label) {
		const gap = 10, rankHeight = 44, height = 22;
		const kids = new Map(nodes.map((n) => [n.row, []]));
		for (const n of nodes) if (n.parent >= 0 && kids.has(n.parent)) kids.get(n.parent).push(n);
		const at = new Map();
		let right = 0;
		const place = (n, depth) => {
			const width = 14 + 6.7 * label(n).length;
			const start = right;
			for (const c of kids.get(n.row)) place(c, depth + 1);
			const cs = kids.get(n.row).map((c) => at.get(c.row));
			let x = cs.length ? (cs[0].x + cs[cs.length - 1].x) / 2 : start + width / 2;
			// A parent wider than its children's span shifts right of them.
			if (x - width / 2 < start) x = start + width / 2;
			right = Math.max(right, x + width / 2 + gap);
			at.set(n.row, { x, y: 4 + height / 2 + depth * rankHeight, width, height });
		};
		for (const n of nodes) if (n.parent < 0) place(n, 0);
		const bottom = Math.max(...[...at.values()].map((p) => p.y + p.height / 2)) + 4;
		return { at, width: Math.max(right - gap, 1), height: bottom };
	}

	// drawTree draws the decomposition as an SVG tree.
	function drawTree(nodes, now) {
		const box = $('htn-tree');
		if (!nodes.length) {
			box.replaceChildren(html('p', 'hint', 'the decomposition is drawn here as it grows'));
			return;
		}
		const label = (n) => n.primitive ? n.task : n.task + (n.method ? ' · ' + n.method.number + ' ' + n.method.name : '');
		const layout = layoutTree(nodes, label);
		const g = { node: (row) => layout.at.get(Number(row)) };
		const size = { width: layout.width, height: layout.height };
		const svg = el('svg', { viewBox: '0 0 ' + Math.ceil(size.width) + ' ' + Math.ceil(size.height), role: 'img', 'aria-label': 'the decomposition as a tree' });
		svg.classList.add('graph', 'htn-graph');
		svg.setAttribute('width', String(Math.min(Math.ceil(size.width), 800)));
		const edges = el('g'), drawn = el('g');
		for (const n of nodes) {
			if (n.parent < 0) continue;
			const a = g.node(n.parent), b = g.node(n.row);
			// Down from the parent, across, down to the child.
			const mid = (a.y + a.height / 2 + b.y - b.height / 2) / 2;
			const points = [[a.x, a.y + a.height / 2], [a.x, mid], [b.x, mid], [b.x, b.y - b.height / 2]];
			edges.append(el('polyline', { class: 'tree-edge', points: points.map(([x, y]) => x.toFixed(1) + ',' + y.toFixed(1)).join(' ') }));
		}
		for (const n of nodes) {
			const p = g.node(String(n.row));
			const cls = 'node ' + (n.primitive ? (n.holds ? 'primitive' : 'primitive fails') : 'compound') + (n.row === now ? ' taken' : '');
			const group = el('g', { class: cls, transform: 'translate(' + p.x.toFixed(1) + ',' + p.y.toFixed(1) + ')' });
			group.dataset.task = n.task;
			group.dataset.parent = n.parent >= 0 ? rowsTask(n.parent) : '';
			group.dataset.method = n.method ? String(n.method.number) : '';
			group.append(el('rect', { x: -p.width / 2, y: -p.height / 2, width: p.width, height: p.height, rx: n.primitive ? 3 : 9 }));
			group.append(el('text', { y: 4 }, label(n)));
			drawn.append(group);
		}
		svg.append(edges, drawn);
		box.replaceChildren(svg);
	}

	const rowsTask = (i) => trace.trace[i].task;

	function show(k) {
		const t = trace;
		const rows = t.trace;
		shown = k;
		const { undone, plan } = replay(rows, k);
		let steps = 0, backtracks = 0;
		drawTree(tree(rows, k, undone), k - 1);
		const list = $('htn-rows');
		list.replaceChildren();
		for (let i = 0; i < k; i++) {
			const r = rows[i];
			if (r.step) steps = r.step;
			if (r.kind === 'backtrack') backtracks++;
			const li = html('li', r.kind + (r.holds === false ? ' fails' : '') + (undone.has(i) ? ' undone' : '') + (i === k - 1 ? ' now' : ''));
			// The depth of the task in the decomposition (CSSOM, which the
			// page's Content-Security-Policy allows, unlike a style attribute).
			li.style.marginLeft = (1.2 * Math.min(r.depth || 0, 12)) + 'em';
			// A backtrack is not a step (the lesson counts tasks taken and
			// methods tested); numbered on its own, every row has a number.
			li.append(html('span', 'htn-step', r.step ? String(r.step) : '↶' + backtracks), html('span', 'htn-text', describe(rows, i)));
			list.append(li);
		}
		// The newest row is the last: keep it in view.
		list.scrollTop = list.scrollHeight;
		const done = k === rows.length;
		figure.dataset.row = String(k);
		figure.dataset.rows = String(rows.length);
		figure.dataset.steps = String(steps);
		figure.dataset.backtracks = String(backtracks);
		$('htn-count').textContent = 'step ' + steps + ' of ' + t.steps + ' · ' + backtracks + ' of ' + plural(t.backtracks, 'backtrack', 'backtracks') +
			' · ' + k + ' of ' + plural(rows.length, 'row', 'rows');
		$('htn-plan').replaceChildren(...plan.map((a) => html('li', '', a)));
		// The task list and the facts after the last row shown; before the
		// first, the root alone and the start state.
		const at = k > 0 ? rows[k - 1] : null;
		const tasks = at ? at.tasks : rows.length ? [rows[0].task] : [];
		const facts = at ? at.facts : rows.length ? rows[0].facts : [];
		$('htn-tasks').replaceChildren(...tasks.map((a) => html('li', '', a)));
		if (!tasks.length) $('htn-tasks').append(html('li', 'empty', 'empty'));
		$('htn-facts').replaceChildren(...facts.map((a) => html('li', '', a)));
		if (!facts.length) $('htn-facts').append(html('li', 'empty', 'no fact true'));
		$('htn-stepper').disabled = done;
		$('htn-end-button').disabled = done;
		$('htn-result').textContent = !done ? '' : t.status === 'found'
			? 'Plan found in ' + t.steps + ' steps with ' + plural(t.backtracks, 'backtrack', 'backtracks') + ' · MTR ' + t.mtr.join(', ')
			: 'No plan: ' + t.status.replace('_', ' ') + '.';
		$('htn-mtr').hidden = !(done && t.status === 'found');
	}

	async function load(q) {
		const reply = await ask(async (signal) => {
			if (!q.described.htn) throw new Error((q.domain || 'your domain') + ' has no htn section: nothing to decompose');
			return ploy.api('decomposition', { domain: q.domain, source: q.source, set: q.set, unset: q.unset }, signal);
		});
		if (!reply) return;
		const { seq, value: t, error } = reply;
		ploy.showError($('htn-error'), error);
		$('htn-body').hidden = !!error;
		trace = error ? null : t;
		if (trace) show(0);
		figure.dataset.seq = String(seq);
	}

	document.addEventListener('ploy:problem', (e) => load(e.detail));
	$('htn-stepper').addEventListener('click', () => {
		if (trace && shown < trace.trace.length) show(shown + 1);
	});
	$('htn-end-button').addEventListener('click', () => {
		if (trace) show(trace.trace.length);
	});
	$('htn-reset').addEventListener('click', () => {
		if (trace) show(0);
	});
})();
