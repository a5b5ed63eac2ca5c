// Figure 5, GOAP against a behaviour tree (seed 001 fig. 4): figure 1's
// start state drives both. The soldier's behaviour tree, ticked by the
// agent runtime on the server (POST /api/v1/tree), beside GOAP's plan for
// the same goal (POST /api/v1/plan); the page says which of the two acts.
'use strict';

(function () {
	const $ = (id) => document.getElementById(id);
	const { html, plural, api } = ploy;
	const figure = $('tree-figure');
	const goal = 'KillPlayer'; // the goal the soldier's tree is written for
	const ask = ploy.newest(figure);

	// verdict says which of the two acts: the tree when it reaches the
	// goal, GOAP when it finds a plan.
	function verdict(tree, plan) {
		const treeActs = tree.status === 'done', goapActs = plan.status === 'found';
		if (treeActs && goapActs) return ['both', 'Both act: the tree and GOAP both kill the player.'];
		if (goapActs) return ['goap', 'Only GOAP acts: the tree idles on a combination its author did not anticipate, while GOAP finds a route.'];
		if (treeActs) return ['tree', 'Only the tree acts.'];
		return ['neither', 'Neither acts: no route to the goal exists, and GOAP says so.'];
	}

	function show(tree, plan) {
		const ran = new Set(tree.ticks.map((t) => t.branch).filter((b) => b));
		$('tree-branches').replaceChildren(...tree.tree.map((b) => {
			const li = html('li', ran.has(b.name) ? 'ran' : '');
			li.append(html('span', 'branch-name', b.name), html('span', 'branch-does', b.does));
			return li;
		}));
		$('tree-ticks').replaceChildren(...tree.ticks.map((t) => {
			const li = html('li', t.branch ? '' : 'idle');
			li.append(html('span', 'tick-n', 'tick ' + t.tick),
				t.branch ? (t.branch + ': ' + (t.actions.length ? t.actions.join(' → ') : 'nothing to do'))
					: 'idle ⚠ no branch applies');
			return li;
		}));
		const treeActs = tree.status === 'done';
		$('tree-status').className = 'badge ' + (treeActs ? 'acts' : 'idle');
		$('tree-status').textContent = treeActs ? 'kills the player in ' + plural(tree.steps.length, 'step', 'steps')
			: tree.status === 'idle' ? 'idle ⚠' : 'still going after ' + tree.ticks.length + ' ticks';
		const goapActs = plan.status === 'found';
		$('tree-goap-status').className = 'badge ' + (goapActs ? 'acts' : 'idle');
		$('tree-goap-status').textContent = goapActs ? 'plans' : 'no plan';
		$('tree-goap-summary').textContent = goapActs
			? plural(plan.plan.length, 'step', 'steps') + ' · cost ' + ploy.number(plan.cost)
			: 'no plan: ' + plan.status.replace('_', ' ') + ' (' + plan.expanded + ' expanded)';
		$('tree-goap-plan').replaceChildren(...plan.plan.map(ploy.actionItem));
		const [who, text] = verdict(tree, plan);
		$('tree-verdict').textContent = text;
		// Red is for errors: a verdict is a finding, coloured for who acts
		// (green both, blue GOAP alone, grey neither).
		$('tree-verdict').className = 'summary verdict-' + who;
		figure.dataset.verdict = who;
	}

	async function load(q) {
		const state = { domain: q.domain, source: q.source, set: q.set, unset: q.unset };
		const reply = await ask(async (signal) => {
			// Not an error: the figure is the soldier's, and says so.
			if (!q.described.goals.includes(goal)) return null;
			return Promise.all([
				api('tree', state, signal),
				// figure 1's search and heuristic too: the same planner
				api('plan', Object.assign({ goal, search: q.search, heuristic: q.heuristic }, state), signal),
			]);
		});
		if (!reply) return;
		const { seq, value, error } = reply;
		const elsewhere = !error && value === null; // a domain without the soldier's goal
		ploy.showError($('tree-error'), error);
		$('tree-note').hidden = !elsewhere;
		$('tree-note-domain').textContent = elsewhere ? q.domain || 'your domain' : '';
		$('tree-body').hidden = !!error || elsewhere;
		if (!error && !elsewhere) show(value[0], value[1]);
		else delete figure.dataset.verdict;
		figure.dataset.seq = String(seq);
	}

	document.addEventListener('ploy:problem', (e) => load(e.detail));
})();
