// Figure 1, the planner (lesson 4, seed 001 fig. 1): controls built from
// GET /api/v1/domains, and every change answered by POST /api/v1/plan
// (and /api/v1/explain when there is no plan). Plain JavaScript, no
// build step, no library.
'use strict';

(function () {
	const $ = (id) => document.getElementById(id);
	const figure = $('planner');
	const { api, shellWord, plural, number, html } = ploy;
	const domains = new Map(); // name -> the API's description
	const engineDomains = new Set(); // the offered keys: files, figure 8's
	const ask = ploy.newest(figure);

	// A pasted or opened domain is offered as "<source>", the name its
	// errors carry; its text stays in the tab's session storage, so that a
	// reload keeps it as the address keeps the controls.
	const pasted = '<source>';
	const storeKey = 'ploy.source';
	const maxSource = 1 << 20; // the server's body cap; the JSON around it counts too
	let sourceFile = 'your-domain.yaml'; // the command line's name for it

	function sourceStatus(kind, text) {
		const status = $('source-status');
		status.className = 'hint ' + kind;
		status.textContent = text;
	}

	// lineOffset is the index in text of line (1-based) and column
	// (1-based, in characters), for putting the cursor on an error.
	function lineOffset(text, line, column) {
		let at = 0;
		for (let l = 1; l < line; l++) {
			const next = text.indexOf('\n', at);
			if (next < 0) return text.length;
			at = next + 1;
		}
		const end = text.indexOf('\n', at);
		const lineText = [...text.slice(at, end < 0 ? text.length : end)];
		return at + lineText.slice(0, Math.max(0, (column || 1) - 1)).join('').length;
	}

	// showSourceErrors lists a source's errors, each under a copy of its
	// line with a caret at its column, as a compiler would; clicking the
	// position puts the editor's cursor there.
	function showSourceErrors(text, answer) {
		const box = $('source-errors');
		const lines = text.split('\n');
		const head = document.createElement('p');
		head.textContent = answer.error || 'the domain has errors';
		const items = (answer.errors || []).map((err) => {
			const item = document.createElement('div');
			item.className = 'source-error';
			item.dataset.line = err.line || 0;
			item.dataset.column = err.column || 0;
			const at = document.createElement('button');
			at.type = 'button';
			at.className = 'at';
			at.textContent = err.line ? err.line + ':' + (err.column || 1) : 'file';
			at.addEventListener('click', () => {
				const editor = $('source');
				const offset = lineOffset(editor.value, err.line || 1, err.column || 1);
				editor.focus();
				editor.setSelectionRange(offset, offset);
			});
			const message = document.createElement('span');
			message.className = 'message';
			message.textContent = ' ' + err.message;
			item.append(at, message);
			if (err.line && err.line <= lines.length) {
				const pre = document.createElement('pre');
				const number = String(err.line);
				const ln = document.createElement('span');
				ln.className = 'ln';
				ln.textContent = number + ' │ ';
				const caret = document.createElement('span');
				caret.className = 'caret';
				// The caret sits under the column, tabs kept so that it
				// lines up with the copy of the line above it.
				const before = [...lines[err.line - 1]].slice(0, Math.max(0, (err.column || 1) - 1));
				const pad = before.map((c) => (c === '\t' ? '\t' : ' ')).join('');
				caret.textContent = '\n' + ' '.repeat(number.length + 3) + pad + '^';
				pre.append(ln, lines[err.line - 1], caret);
				item.append(pre);
			}
			return item;
		});
		if (answer.more_errors) {
			const more = document.createElement('p');
			more.textContent = '… and ' + answer.more_errors + ' more';
			items.push(more);
		}
		box.replaceChildren(head, ...items);
		box.hidden = false;
	}

	// loadSource asks the server to read text as a domain (POST
	// /api/v1/domain): its errors are shown under their lines; a domain
	// without errors is offered as "<source>" and planned at once.
	// keepControls keeps the controls the address names (a reload).
	async function loadSource(text, started, keepControls) {
		sessionStorage.setItem(storeKey, text);
		sessionStorage.setItem(storeKey + '.file', sourceFile);
		if (text.trim() === '') {
			sourceStatus('bad', 'nothing to load: paste a domain or open a file');
			return;
		}
		sourceStatus('', 'loading…');
		let d;
		try {
			d = await api('domain', { source: text });
		} catch (e) {
			figure.dataset.sourceErrors = String((e.answer && e.answer.errors || []).length);
			if (e.answer) showSourceErrors(text, e.answer);
			else {
				$('source-errors').hidden = true;
			}
			sourceStatus('bad', e.answer && e.answer.errors ? 'not loaded: ' + e.answer.errors.length + (e.answer.more_errors ? '+' : '') + ' error' + (e.answer.errors.length === 1 ? '' : 's') + ' below' : 'not loaded: ' + e.message);
			return;
		}
		figure.dataset.sourceErrors = '0';
		$('source-errors').hidden = true;
		if (d.kind !== 'state-space') {
			sourceStatus('bad', 'not planned: an engine-model domain (keys:); this figure plans state-space domains (facts:)');
			nothingPlanned('an engine-model domain is resolved, not planned: ' + shellWords(['ploy', 'resolve', sourceFile]) +
				' resolves it, and figure 8 the shipped ones');
			return;
		}
		d.source = text;
		domains.set(pasted, d);
		sourceStatus('ok', 'loaded: ' + d.facts.length + ' facts, ' + d.goals.length + ' goals' + (d.htn ? ', an HTN' : ''));
		$('domain').value = pasted;
		if (keepControls) recall();
		else showDomain();
		replan(started);
	}

	// showDomain rebuilds the goal picker and the fact toggles, each toggle
	// set as in the domain's initial state.
	function showDomain() {
		const d = domains.get($('domain').value);
		if (!d) return;
		const goal = $('goal');
		goal.replaceChildren(...d.goals.map((g, i) => ploy.option(g, i === 0)));
		// The file's GOAP agents: planning as one uses its costs and
		// capabilities (ploy plan --agent NAME --goal G).
		const none = ploy.html('option', '', 'none');
		none.value = '';
		const agents = d.personalities || [];
		$('agent').replaceChildren(none, ...agents.map((a) => ploy.option(a.name)));
		$('agent').disabled = agents.length === 0;
		showAgent();
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

	// showAgent says what the agent picked changes: its cost overrides.
	function showAgent() {
		const d = domains.get($('domain').value);
		const a = d && (d.personalities || []).find((p) => p.name === $('agent').value);
		const note = $('agent-note');
		note.hidden = !a;
		if (!a) return;
		const costs = Object.keys(a.costs).map((action) => action + ' ' + number(a.costs[action]));
		note.textContent = a.name + ' plans with ' + (costs.length ? 'its costs: ' + costs.join(' · ') + ' (the other actions the file\'s)' : 'the file\'s costs') + ', and its capabilities';
	}

	// request is the plan request for the controls: the facts flipped from
	// the initial state, as `ploy plan --set/--unset` takes them.
	function request() {
		const d = domains.get($('domain').value);
		const initial = new Set(d.initial);
		const q = { goal: $('goal').value, search: $('search').value, heuristic: $('heuristic').value, set: [], unset: [] };
		if ($('agent').value) q.personality = $('agent').value; // --agent NAME with --goal
		if (d.name === pasted) q.source = d.source;
		else q.domain = d.name;
		// The domain's description rides along for the other figures
		// (has it an HTN, which goals), out of the JSON they send.
		Object.defineProperty(q, 'described', { value: d });
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
	// Other figures keep their own keys in the same fragment (figure 8's
	// resolver.*): those are left as they are.
	const ownKeys = ['domain', 'goal', 'set', 'unset', 'search', 'heuristic', 'agent'];
	function remember(q) {
		const p = new URLSearchParams(location.hash.slice(1));
		for (const key of ownKeys) p.delete(key);
		p.set('domain', q.domain || pasted);
		p.set('goal', q.goal);
		if (q.set.length) p.set('set', q.set.join(','));
		if (q.unset.length) p.set('unset', q.unset.join(','));
		if (q.search !== 'forward') p.set('search', q.search);
		if (q.heuristic !== 'goal-count') p.set('heuristic', q.heuristic);
		if (q.personality) p.set('agent', q.personality);
		history.replaceState(history.state, '', '#' + p);
	}

	// pick selects value in a select when it is one of its options.
	function pick(select, value) {
		if (value !== null && [...select.options].some((o) => o.value === value)) select.value = value;
	}

	// recall sets the controls from the fragment; names the page does not
	// offer are ignored.
	function recall() {
		const p = new URLSearchParams(location.hash.slice(1));
		// "<source>" is offered once a pasted domain has loaded.
		if (p.get('domain') !== pasted || domains.has(pasted)) pick($('domain'), p.get('domain'));
		if ($('domain').value === pasted && !domains.has(pasted)) $('domain').selectedIndex = 0;
		showAddressNote(p.get('domain'));
		$('source-panel').hidden = $('domain').value !== pasted;
		showDomain();
		pick($('goal'), p.get('goal'));
		pick($('search'), p.get('search'));
		pick($('heuristic'), p.get('heuristic'));
		pick($('agent'), p.get('agent'));
		showAgent();
		const set = new Set((p.get('set') || '').split(','));
		const unset = new Set((p.get('unset') || '').split(','));
		for (const box of $('facts').querySelectorAll('input[data-fact]')) {
			if (set.has(box.dataset.fact)) box.checked = true;
			if (unset.has(box.dataset.fact)) box.checked = false;
		}
	}

	// showAddressNote says why the figure does not show the domain the
	// address names, instead of silently showing another: an engine-model
	// file is figure 8's (which opens it), any other name is not offered.
	function showAddressNote(name) {
		const note = $('address-note');
		if (name === null || name === pasted || domains.has(name)) {
			note.hidden = true;
			note.replaceChildren();
			return;
		}
		const parts = [html('code', '', name)];
		if (engineDomains.has(name)) {
			const link = html('a', '', 'figure 8');
			link.href = '#resolver-figure';
			link.addEventListener('click', (e) => {
				e.preventDefault(); // keep the fragment: it is the figures' state
				$('resolver-figure').scrollIntoView();
			});
			parts.push(' is an engine-model domain (keys:), resolved, not planned: ', link, ' below shows it. This figure plans state-space domains (facts:) and shows ' +
				$('domain').value + '.');
		} else {
			parts.push(' is not a domain this server offers: the figure shows ' + $('domain').value + ' instead.');
		}
		note.replaceChildren(...parts);
		note.hidden = false;
	}

	// commandWords is the command as shell words, each kept whole when the
	// line wraps: a flag with its value never breaks inside either, and a
	// list of facts breaks only after a comma.
	function commandWords(words) {
		const out = [];
		words.forEach((w, i) => {
			if (i > 0) out.push(' ');
			const word = shellWord(w);
			const pieces = /^[\w.\/:=,+-]+$/.test(w) ? word.split(',') : [word];
			pieces.forEach((piece, j) => {
				if (j > 0) out.push(',', html('wbr'));
				out.push(html('span', 'w', piece));
			});
		});
		return out;
	}

	function command(q) {
		const words = ['ploy', 'plan', q.domain || sourceFile, '--goal', q.goal];
		if (q.personality) words.push('--agent', q.personality);
		if (q.set.length) words.push('--set', q.set.join(','));
		if (q.unset.length) words.push('--unset', q.unset.join(','));
		if (q.search !== 'forward') words.push('--search', q.search);
		if (q.heuristic !== 'goal-count') words.push('--heuristic', q.heuristic);
		return words;
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
		ploy.showError($('error'), error);
		$('command').replaceChildren(...commandWords(command(q)));
		$('command-line').hidden = false;
		if (error) {
			summary.className = 'summary none';
			summary.textContent = 'no answer';
			return;
		}
		const counts = plan.expanded + ' expanded · ' + plan.generated + ' generated';
		if (plan.status === 'found') {
			summary.className = 'summary';
			summary.textContent = plural(plan.plan.length, 'step', 'steps') + ' · cost ' + number(plan.cost) + ' · ' + counts;
			steps.append(...plan.plan.map(ploy.actionItem));
			if (plan.plan.length === 0) steps.append(ploy.html('li', 'hint', 'the start state already meets the goal'));
			return;
		}
		summary.className = 'summary none';
		summary.textContent = (stopped[plan.status] || 'no plan') + ' · ' + counts + (plan.bound ? ' (bound: ' + plan.bound + ')' : '');
		if (why && why.length) {
			$('why-list').replaceChildren(...why.map((reason) => ploy.html('li', '', reason)));
			$('why').hidden = false;
		}
	}

	// replan asks for the plan of the controls' state and shows it, unless a
	// newer request has been sent meanwhile. started is when the user acted
	// (performance.now()), for the figure's own timing.
	async function replan(started) {
		const q = request();
		remember(q);
		const reply = await ask(async (signal) => {
			const plan = await api('plan', q, signal);
			if (plan.status !== 'no_plan') return { plan };
			return { plan, why: (await api('explain', Object.assign({ alternatives: 0 }, q), signal)).why };
		});
		if (!reply) return; // a newer answer is on its way
		const { seq, value, error } = reply;
		show(q, value && value.plan, value && value.why, error);
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

	const shellWords = (words) => words.map(shellWord).join(' ');

	// nothingPlanned empties the figure of the last plan (its goal, facts,
	// steps and command) and says why there is none.
	function nothingPlanned(why) {
		$('facts').replaceChildren();
		$('goal').replaceChildren();
		$('plan').replaceChildren();
		$('why').hidden = true;
		ploy.showError($('error'), '');
		// Not an error (the status beside the editor says what went wrong):
		// what to do next.
		$('summary').className = 'summary hint';
		$('summary').textContent = why;
		$('command').replaceChildren();
		$('command-line').hidden = true;
		$('timing').textContent = '';
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

	$('domain').addEventListener('change', () => {
		showAddressNote(null); // a domain picked: the address's is past
		const own = $('domain').value === pasted;
		$('source-panel').hidden = !own;
		if (own && !domains.has(pasted)) {
			// Nothing loaded yet: the page waits for the text.
			nothingPlanned('paste a domain or open a file, then load it');
			$('source').focus();
			return;
		}
		act(showDomain)();
	});
	$('source-load').addEventListener('click', () => loadSource($('source').value, performance.now()));
	$('source').addEventListener('keydown', (e) => {
		if (e.key === 'Enter' && (e.ctrlKey || e.metaKey)) {
			e.preventDefault();
			loadSource($('source').value, performance.now());
		}
	});
	$('source-file').addEventListener('change', async () => {
		const file = $('source-file').files[0];
		if (!file) return;
		if (file.size > maxSource) {
			sourceStatus('bad', file.name + ' is ' + file.size + ' bytes: the server takes at most ' + maxSource);
			return;
		}
		const text = await file.text();
		$('source').value = text;
		sourceFile = file.name;
		loadSource(text, performance.now());
	});
	$('reset').addEventListener('click', act(resetFacts));
	$('agent').addEventListener('change', act(showAgent));
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
				else engineDomains.add(d.name);
			}
		} catch (e) {
			$('summary').textContent = 'cannot list the domains: ' + e.message;
			return;
		}
		const saved = sessionStorage.getItem(storeKey);
		if (saved !== null) {
			$('source').value = saved;
			sourceFile = sessionStorage.getItem(storeKey + '.file') || sourceFile;
			if (new URLSearchParams(location.hash.slice(1)).get('domain') === pasted) {
				$('domain').value = pasted;
				$('source-panel').hidden = false;
				await loadSource(saved, started, true);
				return;
			}
		}
		recall();
		replan(started);
	})();
})();
