// Figure 6, personalities (seed 001 §5): figure 1's start state, answered
// for each of the domain's personalities by POST /api/v1/personalities:
// the goal each pursues, the costs it sees, its plan; then every
// personality's plan for one goal, so that one graph giving different
// plans shows.
'use strict';

(function () {
	const $ = (id) => document.getElementById(id);
	const { html, number, plural } = ploy;
	const figure = $('personalities-figure');
	const ask = ploy.newest(figure);
	let answer = null; // the answer on screen
	let problem = null; // figure 1's request it answers

	// planLine is a plan's summary: "3 steps · cost 9", or why there is none.
	function planLine(plan) {
		if (plan.status === 'found') return plural(plan.plan.length, 'step', 'steps') + ' · cost ' + number(plan.cost);
		return plan.status === 'no_plan' ? 'no plan' : 'no plan: ' + plan.status.replace('_', ' ');
	}

	function planList(plan) {
		const ol = html('ol', 'plan');
		ol.append(...plan.plan.map(ploy.actionItem));
		return ol;
	}

	// side draws one personality: its goals by priority, the one chosen,
	// its costs (those differing from the domain's marked) and its plan.
	function side(p) {
		const box = html('div', 'side');
		box.dataset.personality = p.name;
		box.dataset.chosen = p.chosen;
		const h = html('h3', '', p.name + ' ');
		const badge = html('span', 'badge ' + (p.chosen ? 'acts' : 'idle'), p.chosen ? 'pursues ' + p.chosen : 'idles');
		h.append(badge);
		box.append(h);
		const goals = html('ol', 'personality-goals');
		for (const g of p.goals) {
			const li = html('li', g.goal === p.chosen ? 'chosen' : '');
			// An option scored by utility shows its score in this state.
			const rank = g.score !== g.priority ? ' score ' + number(g.score) : ' priority ' + number(g.priority);
			li.append(html('span', 'goal-name', g.goal), html('span', 'hint', rank + ' · '));
			li.append(html('span', 'goal-state', g.holds ? 'met already' : !g.applies ? 'does not apply here (its when:)' : planLine(g.plan)));
			goals.append(li);
		}
		box.append(html('p', 'hint', 'goals, highest priority first:'), goals);
		const chosen = p.goals.find((g) => g.goal === p.chosen);
		const summary = html('p', 'took personality-plan');
		summary.textContent = chosen ? p.chosen + ': ' + planLine(chosen.plan)
			: 'nothing to pursue: every goal is met, does not apply, or has no plan';
		box.append(summary);
		if (chosen) box.append(planList(chosen.plan));
		const costs = html('ul', 'chips personality-costs');
		for (const c of p.costs) {
			const li = html('li', c.cost !== c.base ? 'changed' : '', c.action + ' ' + number(c.cost));
			if (c.cost !== c.base) li.title = 'the domain says ' + number(c.base);
			costs.append(li);
		}
		box.append(html('p', 'hint', 'costs it sees (changed ones marked):'), costs);
		return box;
	}

	// goalsOf lists every goal some personality has, in first-seen order.
	function goalsOf(a) {
		const out = [];
		for (const p of a.personalities) for (const g of p.goals) if (!out.includes(g.goal)) out.push(g.goal);
		return out;
	}

	// compare draws every personality's plan for one goal.
	function compare(goal) {
		const boxes = answer.personalities.map((p) => {
			const box = html('div', 'side');
			box.dataset.personality = p.name;
			const g = p.goals.find((x) => x.goal === goal);
			box.append(html('h3', '', p.name + ' · ' + goal));
			if (!g) {
				box.append(html('p', 'hint', goal + ' is not one of its goals'));
				return box;
			}
			box.dataset.cost = g.plan.status === 'found' ? String(g.plan.cost) : '';
			box.append(html('p', 'took', g.holds ? 'met already' : planLine(g.plan)), planList(g.plan));
			return box;
		});
		$('personalities-compare').replaceChildren(...boxes);
		figure.dataset.compared = goal;
	}

	function show(a, q) {
		answer = a;
		const none = a.personalities.length === 0;
		$('personalities-none').hidden = !none;
		$('personalities-none').textContent = none ? (q.domain || 'your domain') + ' has no personalities: GOAP agents under its agents: section (docs/agents.md)' : '';
		$('personalities-body').hidden = none;
		if (none) return;
		$('personalities-sides').replaceChildren(...a.personalities.map(side));
		// The goal compared: the one picked before if still offered, else
		// figure 1's, else the first personality's choice.
		const goals = goalsOf(a);
		const select = $('personalities-goal');
		const before = select.value;
		select.replaceChildren(...goals.map((g) => ploy.option(g)));
		const first = a.personalities[0].chosen || goals[0];
		// A goal picked here stays until figure 1's domain or goal changes.
		const kept = problem && problem.domain === q.domain && problem.source === q.source && problem.goal === q.goal && goals.includes(before);
		select.value = kept ? before : goals.includes(q.goal) ? q.goal : first;
		compare(select.value);
	}

	async function load(q) {
		const body = { domain: q.domain, source: q.source, set: q.set, unset: q.unset, search: q.search, heuristic: q.heuristic };
		const reply = await ask((signal) => ploy.api('personalities', body, signal));
		if (!reply) return;
		const { seq, value: a, error } = reply;
		ploy.showError($('personalities-error'), error);
		if (error) {
			$('personalities-body').hidden = true;
		} else {
			show(a, q);
		}
		problem = q;
		figure.dataset.seq = String(seq);
	}

	document.addEventListener('ploy:problem', (e) => load(e.detail));
	$('personalities-goal').addEventListener('change', () => {
		if (answer) compare($('personalities-goal').value);
	});
})();
