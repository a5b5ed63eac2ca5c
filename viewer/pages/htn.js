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
						for (let j = c.row; j < i; j++) undone.add(j);
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

	function show(k) {
		const t = trace;
		const rows = t.trace;
		shown = k;
		const { undone, plan } = replay(rows, k);
		let steps = 0, backtracks = 0;
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
			li.append(html('span', 'htn-step', r.step ? String(r.step) : '↶'), html('span', 'htn-text', describe(rows, i)));
			list.append(li);
		}
		// The newest row is the last: keep it in view.
		list.scrollTop = list.scrollHeight;
		const done = k === rows.length;
		figure.dataset.row = String(k);
		figure.dataset.rows = String(rows.length);
		figure.dataset.steps = String(steps);
		figure.dataset.backtracks = String(backtracks);
		$('htn-count').textContent = 'step ' + steps + ' of ' + t.steps + ' · ' + backtracks + ' of ' + plural(t.backtracks, 'backtrack', 'backtracks');
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
