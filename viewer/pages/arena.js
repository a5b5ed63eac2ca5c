// Figure 7, the arena (lessons 4 and 5): a batch of fights streamed from
// the server (POST /api/v1/arena/batch: progress after every fight, then
// `ploy arena --json`'s table and `--plots`' charts), and a top-down
// replay of one fight, either fought again on the server
// (POST /api/v1/arena/fight, the log `ploy arena --record` writes) or read
// from a log file the user picks. The replay draws on a canvas from
// frames computed once when the log is read; each animation frame draws
// the arena's fixed parts from an image made once, then the mage and the
// enemies, and touches the page's text only when the tick changes.
'use strict';

(function () {
	const $ = (id) => document.getElementById(id);
	const { html } = ploy;
	const figure = $('arena-figure');
	if (!figure) return;

	// A log is about 200 KB; these bound what a file picked by the user
	// may make the page parse and hold.
	const maxLogBytes = 16 << 20;
	const maxLogLines = 200000;
	const maxEnemies = 256;
	const maxCover = 1000;

	function showError(id, message) {
		ploy.showError($(id), message);
	}

	// fixed formats x with d decimals as Go's fmt does, so that the table
	// reads as `ploy arena` prints it: an exact tie rounds to even, where
	// toFixed would round it up.
	function fixed(x, d) {
		const p = 2 ** (d + 1);
		if (Number.isInteger(x * p) && (x * p) % 2 !== 0) {
			const lo = Math.floor(x * 10 ** d);
			return ((lo % 2 === 0 ? lo : lo + 1) / 10 ** d).toFixed(d);
		}
		return x.toFixed(d);
	}
	const dash = (x) => (x === null || x === undefined ? '-' : fixed(x, 1));

	// ---- the batch ----

	let batch = null; // the AbortController of the batch streaming

	function batchRequest() {
		const fights = Number($('arena-fights').value);
		const seed = Number($('arena-seed').value);
		const max = Number($('arena-fights').max);
		if (!Number.isInteger(fights) || fights < 1 || fights > max) throw new Error(`fights must be a whole number from 1 to ${max}`);
		if (!Number.isSafeInteger(seed) || seed < 0) throw new Error('seed must be a whole number from 0');
		const agents = [...document.querySelectorAll('#arena-kinds input:checked')].map((e) => e.value);
		if (agents.length === 0) throw new Error('pick at least one agent kind');
		return { domain: $('arena-domain').value, fights, seed, agents };
	}

	// events reads a stream of Server-Sent Events, calling on(name, data)
	// for each.
	async function events(body, on) {
		const reader = body.getReader();
		const decoder = new TextDecoder();
		let buffer = '';
		for (;;) {
			const { value, done } = await reader.read();
			if (done) break;
			buffer += decoder.decode(value, { stream: true });
			let end;
			while ((end = buffer.indexOf('\n\n')) >= 0) {
				const block = buffer.slice(0, end);
				buffer = buffer.slice(end + 2);
				let name = '';
				const data = [];
				for (const line of block.split('\n')) {
					if (line.startsWith('event: ')) name = line.slice(7);
					else if (line.startsWith('data: ')) data.push(line.slice(6));
				}
				on(name, data.join('\n'));
			}
		}
	}

	async function runBatch() {
		showError('arena-error', '');
		let request;
		try {
			request = batchRequest();
		} catch (e) {
			showError('arena-error', e.message);
			return;
		}
		if (batch) batch.abort();
		const controller = new AbortController();
		batch = controller;
		figure.dataset.batch = 'running';
		$('arena-progress').value = 0;
		$('arena-progress').max = request.fights * request.agents.length;
		$('arena-progress-text').textContent = 'starting…';
		let ended = false;
		try {
			const r = await ploy.fetchAPI('arena/batch', request, controller.signal);
			await events(r.body, (name, data) => {
				if (batch !== controller) return;
				switch (name) {
				case 'progress': {
					const p = JSON.parse(data);
					$('arena-progress').max = p.total;
					$('arena-progress').value = p.done;
					$('arena-progress-text').textContent = `${p.done}/${p.total} fights`;
					break;
				}
				case 'table':
					showTable(JSON.parse(data), request);
					break;
				case 'charts':
					showCharts(JSON.parse(data));
					break;
				case 'error':
					throw new Error(JSON.parse(data).error);
				case 'done':
					ended = true;
					break;
				}
			});
			if (!ended) throw new Error('the batch stopped before its end');
			if (batch === controller) figure.dataset.batch = 'done';
		} catch (e) {
			if (controller.signal.aborted) return;
			showError('arena-error', e.message);
			figure.dataset.batch = 'error';
		}
	}

	function showTable(rows, request) {
		const body = $('arena-table').tBodies[0];
		body.replaceChildren();
		for (const r of rows) {
			const tr = html('tr');
			const cells = [r.kind, `${r.survived}/${r.fights}`, fixed(r.killed, 1), fixed(r.mean_health, 1), fixed(r.plans, 1), fixed(r.replans, 1),
				dash(r.expanded_per_plan), dash(r.steps_per_plan), fixed(r.interruptions, 1), fixed(r.top_level_interruptions, 1), fixed(r.work_per_tick, 2)];
			cells.forEach((c, i) => tr.append(html(i === 0 ? 'th' : 'td', '', c)));
			tr.title = r.title + (Object.keys(r.replan_reasons).length ? ': replans by reason: ' +
				Object.entries(r.replan_reasons).sort((a, b) => b[1] - a[1]).map(([k, v]) => `${k} ${fixed(v, 1)}`).join(', ') : '');
			body.append(tr);
		}
		$('arena-results').hidden = false;
		// The replay offers the fights of this batch.
		const agent = $('arena-agent');
		const was = agent.value;
		agent.replaceChildren(...request.agents.map((k) => ploy.option(k)));
		if (request.agents.includes(was)) agent.value = was;
		$('arena-fight').max = request.fights - 1;
		if (Number($('arena-fight').value) > request.fights - 1) $('arena-fight').value = request.fights - 1;
		ran = request;
	}

	// showCharts puts the charts into the page as SVG elements, parsed
	// as XML rather than set as HTML: the server has turned their style
	// attributes, which the page's policy refuses, into SVG attributes.
	function showCharts(charts) {
		const box = $('arena-charts');
		box.replaceChildren();
		for (const c of charts) {
			const doc = new DOMParser().parseFromString(c.svg, 'image/svg+xml');
			const svg = doc.documentElement;
			if (svg.nodeName !== 'svg') continue;
			const wrap = html('div', 'arena-chart' + (c.name === 'health.svg' ? ' wide' : ''));
			wrap.dataset.name = c.name;
			wrap.setAttribute('role', 'img');
			wrap.setAttribute('aria-label', c.title);
			wrap.append(document.importNode(svg, true));
			box.append(wrap);
		}
	}

	// ---- the replay ----

	let ran = null; // the last batch's request: the fights the replay offers
	let log = null; // the parsed log on screen
	let pos = 0; // the tick shown, fractional while playing
	let shownTick = -1; // the tick the page's text shows
	let shownEvent = -2;
	let playing = false;
	let lastTime = null;
	let frameTimes = [];
	let drawTimes = [];

	const canvas = $('arena-canvas');
	const ctx = canvas.getContext('2d', { alpha: false });
	const strip = $('arena-strip');
	const stripCtx = strip.getContext('2d', { alpha: false });
	let background = null; // the arena's fixed parts, drawn once per log
	let stripImage = null; // the timeline strip without its playhead
	let view = null; // metres to pixels

	const timelineKinds = new Set(['goal_chosen', 'plan_made', 'no_plan', 'replan', 'interruption_taken', 'interruption_refused']);

	function bad(where, what) {
		throw new Error(`${where}: ${what}`);
	}
	const isNum = (x) => typeof x === 'number' && Number.isFinite(x);
	const isInt = (x) => Number.isInteger(x);
	function pair(x, where, what) {
		if (!Array.isArray(x) || x.length !== 2 || !isNum(x[0]) || !isNum(x[1])) bad(where, `${what} must be two numbers, [x, y]`);
		return x;
	}
	function optional(o, key, test, where, what) {
		if (o[key] !== undefined && !test(o[key])) bad(where, `${key} must be ${what}`);
	}

	// parseLog reads a log `ploy arena --record` wrote, checking every
	// line, into the world at every tick (frames[0] the start) and the
	// agent's events.
	function parseLog(text, name) {
		const lines = text.split('\n');
		if (lines.length && lines[lines.length - 1] === '') lines.pop();
		if (lines.length > maxLogLines) bad(name, `${lines.length} lines, more than the ${maxLogLines} a log may have`);
		if (lines.length === 0) bad(name, 'the file is empty');
		const parsed = (i) => {
			try {
				const v = JSON.parse(lines[i]);
				if (v === null || typeof v !== 'object' || Array.isArray(v)) throw new Error('not an object');
				return v;
			} catch (e) {
				bad(`${name} line ${i + 1}`, `not a JSON object (${e.message})`);
			}
		};
		const first = parsed(0);
		const layout = first.layout;
		let where = `${name} line 1`;
		if (!layout || typeof layout !== 'object') bad(where, 'no layout: a log from ploy arena --record starts with {"layout": ...}; a log recorded before replays existed has none, record it again');
		if (!isNum(layout.width) || !isNum(layout.height) || layout.width <= 0 || layout.height <= 0 || layout.width > 10000 || layout.height > 10000) bad(where, 'layout width and height must be numbers from 0 to 10000');
		if (!isInt(layout.ticks) || layout.ticks < 1 || layout.ticks > 1e6) bad(where, 'layout ticks must be a whole number from 1 to 1000000');
		if (!isNum(layout.tick_seconds) || layout.tick_seconds <= 0) bad(where, 'layout tick_seconds must be a positive number');
		if (!Array.isArray(layout.cover) || layout.cover.length > maxCover) bad(where, `layout cover must be a list of at most ${maxCover} [x, y]`);
		layout.cover.forEach((c) => pair(c, where, 'each cover'));
		for (const k of ['mage_start', 'shrine', 'crystal_cache']) pair(layout[k], where, 'layout ' + k);
		for (const k of ['cover_radius', 'range', 'max_health', 'enemy_health']) if (!isNum(layout[k]) || layout[k] < 0) bad(where, `layout ${k} must be a number`);
		optional(layout, 'max_charges', isInt, where, 'a whole number');
		optional(layout, 'fight', isInt, where, 'a whole number');
		optional(layout, 'agent', (x) => typeof x === 'string', where, 'a string');

		const frames = [{
			tick: 0, mage: layout.mage_start, health: layout.max_health, charges: 0, enemies: [], enemy_health: [],
			crystals: true, potion: false, shrine: true, killed: 0, dead: false,
		}];
		const events = [];
		for (let i = 1; i < lines.length; i++) {
			where = `${name} line ${i + 1}`;
			const o = parsed(i);
			if (o.world !== undefined) {
				const w = o.world;
				if (!w || typeof w !== 'object') bad(where, 'world must be an object');
				if (w.tick !== frames.length) bad(where, `world tick ${JSON.stringify(w.tick)}, want ${frames.length}: a world line comes after every tick, in order`);
				if (frames.length > layout.ticks) bad(where, `more ticks than the layout's ${layout.ticks}`);
				pair(w.mage, where, 'world mage');
				if (!isNum(w.health)) bad(where, 'world health must be a number');
				if (!isInt(w.charges) || w.charges < 0) bad(where, 'world charges must be a whole number');
				if (!Array.isArray(w.enemies) || w.enemies.length > maxEnemies) bad(where, `world enemies must be a list of at most ${maxEnemies} [x, y]`);
				w.enemies.forEach((e) => pair(e, where, 'each enemy'));
				optional(w, 'enemy_health', (x) => Array.isArray(x) && x.length === w.enemies.length && x.every(isNum), where, 'a number for each enemy');
				for (const k of ['crystals', 'potion', 'shrine', 'dead']) optional(w, k, (x) => typeof x === 'boolean', where, 'true or false');
				optional(w, 'killed', isInt, where, 'a whole number');
				frames.push(w);
			} else if (o.event !== undefined) {
				const e = o.event;
				if (!e || typeof e !== 'object') bad(where, 'event must be an object');
				if (!isInt(e.tick) || e.tick < 0 || e.tick > layout.ticks) bad(where, 'event tick must be a whole number within the fight');
				if (typeof e.kind !== 'string') bad(where, 'event kind must be a string');
				for (const k of ['goal', 'action', 'reason', 'agent']) optional(e, k, (x) => typeof x === 'string', where, 'a string');
				optional(e, 'plan', (x) => Array.isArray(x) && x.every((s) => typeof s === 'string'), where, 'a list of action names');
				optional(e, 'cost', isNum, where, 'a number');
				optional(e, 'mtr', (x) => Array.isArray(x) && x.every(isInt), where, 'a list of whole numbers');
				events.push(e);
			} else {
				bad(where, 'a line must be {"world": ...} or {"event": ...}');
			}
		}
		if (frames.length === 1) bad(name, 'no world lines: nothing to replay');
		return { name, layout, frames, events, last: frames.length - 1 };
	}

	// The arena's coordinates: metres, x right and y down, as the log's.
	function makeView(layout) {
		const margin = 10;
		const scale = Math.min((canvas.width - 2 * margin) / layout.width, (canvas.height - 2 * margin) / layout.height);
		return {
			scale,
			x: (m) => margin + m * scale,
			y: (m) => margin + m * scale,
		};
	}

	function drawBackground(layout) {
		const c = document.createElement('canvas');
		c.width = canvas.width;
		c.height = canvas.height;
		const g = c.getContext('2d');
		const v = view;
		g.fillStyle = '#ffffff';
		g.fillRect(0, 0, c.width, c.height);
		g.fillStyle = '#f6f8fa';
		g.fillRect(v.x(0), v.y(0), layout.width * v.scale, layout.height * v.scale);
		g.strokeStyle = '#e4e8ec';
		g.lineWidth = 1;
		g.beginPath();
		for (let x = 5; x < layout.width; x += 5) {
			g.moveTo(v.x(x) + 0.5, v.y(0));
			g.lineTo(v.x(x) + 0.5, v.y(layout.height));
		}
		for (let y = 5; y < layout.height; y += 5) {
			g.moveTo(v.x(0), v.y(y) + 0.5);
			g.lineTo(v.x(layout.width), v.y(y) + 0.5);
		}
		g.stroke();
		g.strokeStyle = '#8c959f';
		g.lineWidth = 2;
		g.strokeRect(v.x(0), v.y(0), layout.width * v.scale, layout.height * v.scale);
		// Cover: a rock, and the ring within which the mage is in cover.
		for (const [x, y] of layout.cover) {
			g.fillStyle = '#8c959f';
			const s = 0.7 * v.scale;
			g.fillRect(v.x(x) - s, v.y(y) - s, 2 * s, 2 * s);
			g.setLineDash([3, 3]);
			g.strokeStyle = '#8c959f';
			g.lineWidth = 1;
			g.beginPath();
			g.arc(v.x(x), v.y(y), layout.cover_radius * v.scale + 4, 0, 2 * Math.PI);
			g.stroke();
			g.setLineDash([]);
		}
		// The crystal cache.
		const [cx, cy] = layout.crystal_cache;
		g.fillStyle = '#8250df';
		g.beginPath();
		g.moveTo(v.x(cx), v.y(cy) - 9);
		g.lineTo(v.x(cx) + 8, v.y(cy) + 6);
		g.lineTo(v.x(cx) - 8, v.y(cy) + 6);
		g.closePath();
		g.fill();
		// The places' names are drawn with each frame (placeLabels), where
		// the mage is not.
		g.font = labelFont;
		labels = [['crystal cache', layout.crystal_cache], ['shrine', layout.shrine]].map(([text, [x, y]]) =>
			({ text, x: v.x(x), y: v.y(y), w: Math.ceil(g.measureText(text).width) }));
		return c;
	}

	const labelFont = '11px system-ui, sans-serif';
	const labelHeight = 12;
	let labels = []; // {text, x, y (the place, in pixels), w (the text's width)}
	let placed = { mage: null, labels: [] }; // the boxes last drawn, for the page's dataset

	const overlaps = (a, b) => a.x < b.x + b.w && b.x < a.x + a.w && a.y < b.y + b.h && b.y < a.y + a.h;

	// placeLabels names the places beside their marks, inside the arena,
	// on the first side (right, below, above, left, then further below or
	// above) where the name does not cross the mage (its body, health bar,
	// charges and potion: the box mage), so that the mage standing at the
	// crystal cache hides neither.
	function placeLabels(mage) {
		const L = log.layout, v = view;
		const area = { x: v.x(0) + 2, y: v.y(0) + 2, w: L.width * v.scale - 4, h: L.height * v.scale - 4 };
		const inside = (b) => ({
			x: Math.min(Math.max(b.x, area.x), area.x + area.w - b.w),
			y: Math.min(Math.max(b.y, area.y), area.y + area.h - b.h), w: b.w, h: b.h,
		});
		ctx.font = labelFont;
		ctx.textBaseline = 'middle';
		ctx.lineJoin = 'round';
		ctx.lineWidth = 3;
		ctx.strokeStyle = '#f6f8fa';
		ctx.fillStyle = '#57606a';
		placed = { mage, area, labels: [] };
		for (const l of labels) {
			const sides = [
				{ x: l.x + 12, y: l.y - labelHeight / 2 },
				{ x: l.x - l.w / 2, y: l.y + 12 },
				{ x: l.x - l.w / 2, y: l.y - 12 - labelHeight },
				{ x: l.x - 12 - l.w, y: l.y - labelHeight / 2 },
				{ x: l.x - l.w / 2, y: l.y + 30 },
				{ x: l.x - l.w / 2, y: l.y - 30 - labelHeight },
			].map((p) => inside({ x: p.x, y: p.y, w: l.w, h: labelHeight }));
			const box = sides.find((b) => !overlaps(b, mage)) || sides[0];
			ctx.strokeText(l.text, box.x, box.y + labelHeight / 2);
			ctx.fillText(l.text, box.x, box.y + labelHeight / 2);
			placed.labels.push(Object.assign({ text: l.text }, box));
		}
		ctx.textBaseline = 'alphabetic';
	}

	function drawStrip() {
		const c = document.createElement('canvas');
		c.width = strip.width;
		c.height = strip.height;
		const g = c.getContext('2d');
		g.fillStyle = '#ffffff';
		g.fillRect(0, 0, c.width, c.height);
		const x = (tick) => 1 + (tick / Math.max(1, log.last)) * (c.width - 2);
		// The mage's health along the fight, and a mark per event.
		g.strokeStyle = '#1a7f37';
		g.lineWidth = 1;
		g.beginPath();
		const h = c.height - 10;
		log.frames.forEach((f, t) => {
			const y = 9 + h - (Math.max(0, f.health) / log.layout.max_health) * (h - 1);
			if (t === 0) g.moveTo(x(t), y);
			else g.lineTo(x(t), y);
		});
		g.stroke();
		for (const e of log.timeline) {
			g.fillStyle = eventColour(e.kind);
			g.fillRect(Math.round(x(e.tick)), 0, 1, e.kind === 'replan' || e.kind.startsWith('interruption') ? 8 : 5);
		}
		return c;
	}

	function eventColour(kind) {
		switch (kind) {
		case 'replan': return '#bc4c00';
		case 'interruption_taken': return '#0969da';
		case 'interruption_refused': return '#8c959f';
		case 'no_plan': return '#cf222e';
		case 'goal_chosen': return '#8250df';
		default: return '#0969da';
		}
	}

	function describe(e) {
		const mtr = e.mtr ? ` (MTR ${e.mtr.join('.')})` : '';
		const plan = e.plan && e.plan.length ? e.plan.join(' → ') : 'empty, nothing to do';
		const why = e.reason ? ` (${e.reason})` : '';
		switch (e.kind) {
		case 'goal_chosen': return e.goal ? `goal chosen: ${e.goal}` : 'no goal applies';
		case 'plan_made': return `plan made${e.goal ? ' for ' + e.goal : ''}: ${plan}${e.cost ? ` (cost ${ploy.number(e.cost)})` : ''}${mtr}`;
		case 'no_plan': return `no plan${e.goal ? ' for ' + e.goal : ''}${e.reason ? ': ' + e.reason : ''}`;
		case 'replan': return `replan: ${e.reason || 'no reason given'}`;
		case 'interruption_taken': return `interruption taken${why}${e.top_level ? ', at the top level' : ''}: ${plan}${mtr}`;
		case 'interruption_refused': return `interruption refused${why}: no smaller MTR${mtr}, the running plan goes on`;
		}
		return e.kind;
	}

	function show(parsed, title) {
		pause();
		log = parsed;
		log.timeline = log.events.filter((e) => timelineKinds.has(e.kind));
		// What the mage is doing and pursuing at every tick, worked out
		// once rather than searched for in each frame.
		log.doing = new Array(log.last + 1).fill('');
		log.goal = new Array(log.last + 1).fill('');
		log.plan = new Array(log.last + 1).fill('');
		log.eventAt = new Int32Array(log.last + 1).fill(-1); // the last timeline event by each tick
		let doing = '', goal = '', plan = '', k = 0, ti = -1;
		const byTick = new Map();
		for (const e of log.events) {
			if (!byTick.has(e.tick)) byTick.set(e.tick, []);
			byTick.get(e.tick).push(e);
		}
		for (let t = 0; t <= log.last; t++) {
			for (const e of byTick.get(t) || []) {
				if (e.kind === 'step_started') doing = e.action || '';
				else if (e.kind === 'step_done' || e.kind === 'action_failed' || e.kind === 'plan_done') doing = '';
				if (e.goal !== undefined && (e.kind === 'goal_chosen' || e.kind === 'plan_made')) goal = e.goal;
				if (e.kind === 'plan_made' || e.kind === 'interruption_taken') plan = (e.plan || []).join(' → ');
				else if (e.kind === 'plan_done' || e.kind === 'no_plan') plan = '';
			}
			while (k < log.timeline.length && log.timeline[k].tick <= t) ti = k++;
			log.doing[t] = doing;
			log.goal[t] = goal;
			log.plan[t] = plan;
			log.eventAt[t] = ti;
		}
		view = makeView(log.layout);
		background = drawBackground(log.layout);
		stripImage = drawStrip();
		const list = $('arena-timeline');
		list.replaceChildren(...log.timeline.map((e, i) => {
			const li = html('li', 'ev-' + e.kind.replace('_', '-'));
			li.dataset.tick = e.tick;
			li.tabIndex = 0;
			li.dataset.index = i;
			li.append(html('span', 'ev-tick', (e.tick * log.layout.tick_seconds).toFixed(1) + ' s'), html('span', 'ev-text', describe(e)));
			return li;
		}));
		$('arena-replay-name').textContent = title;
		$('arena-last').textContent = String(log.last);
		const scrubber = $('arena-scrubber');
		scrubber.max = log.last;
		$('arena-replay').hidden = false;
		shownTick = -1;
		shownEvent = -2;
		pos = 0;
		render();
		figure.dataset.replay = 'paused';
	}

	function lerp(a, b, f) {
		return a + (b - a) * f;
	}

	function draw(p) {
		const v = view;
		const L = log.layout;
		const t = Math.floor(p);
		const f = log.frames[t];
		const next = log.frames[Math.min(t + 1, log.last)];
		const frac = p - t;
		ctx.drawImage(background, 0, 0);
		// The shrine, with its potion or without.
		const [sx, sy] = L.shrine;
		ctx.beginPath();
		ctx.moveTo(v.x(sx), v.y(sy) - 9);
		ctx.lineTo(v.x(sx) + 8, v.y(sy));
		ctx.lineTo(v.x(sx), v.y(sy) + 9);
		ctx.lineTo(v.x(sx) - 8, v.y(sy));
		ctx.closePath();
		ctx.lineWidth = 2;
		ctx.strokeStyle = '#1a7f37';
		ctx.fillStyle = f.shrine === false ? '#ffffff' : '#2da44e';
		ctx.fill();
		ctx.stroke();
		// Enemies, each with its health; positions in between ticks where
		// the same enemies are there at both.
		const same = next.enemies.length === f.enemies.length;
		for (let i = 0; i < f.enemies.length; i++) {
			const a = f.enemies[i], b = same ? next.enemies[i] : a;
			const x = v.x(lerp(a[0], b[0], frac)), y = v.y(lerp(a[1], b[1], frac));
			ctx.fillStyle = '#cf222e';
			ctx.beginPath();
			ctx.arc(x, y, 0.6 * v.scale, 0, 2 * Math.PI);
			ctx.fill();
			if (f.enemy_health) {
				const w = 1.4 * v.scale;
				ctx.fillStyle = '#d0d7de';
				ctx.fillRect(x - w / 2, y - 0.6 * v.scale - 6, w, 3);
				ctx.fillStyle = '#cf222e';
				ctx.fillRect(x - w / 2, y - 0.6 * v.scale - 6, w * Math.max(0, f.enemy_health[i]) / L.enemy_health, 3);
			}
		}
		// The mage: its reach, its health above, its charges below.
		const mx = v.x(lerp(f.mage[0], next.mage[0], frac)), my = v.y(lerp(f.mage[1], next.mage[1], frac));
		ctx.save();
		ctx.beginPath();
		ctx.rect(v.x(0), v.y(0), L.width * v.scale, L.height * v.scale);
		ctx.clip();
		ctx.strokeStyle = 'rgba(9, 105, 218, 0.25)';
		ctx.lineWidth = 1;
		ctx.beginPath();
		ctx.arc(mx, my, L.range * v.scale, 0, 2 * Math.PI);
		ctx.stroke();
		ctx.restore();
		ctx.fillStyle = f.dead ? '#57606a' : '#0969da';
		ctx.beginPath();
		ctx.arc(mx, my, 0.75 * v.scale, 0, 2 * Math.PI);
		ctx.fill();
		const w = 2 * v.scale;
		ctx.fillStyle = '#d0d7de';
		ctx.fillRect(mx - w / 2, my - 0.75 * v.scale - 8, w, 4);
		ctx.fillStyle = f.health >= 60 ? '#1a7f37' : f.health >= 40 ? '#bf8700' : '#cf222e';
		ctx.fillRect(mx - w / 2, my - 0.75 * v.scale - 8, w * Math.max(0, f.health) / L.max_health, 4);
		const charges = L.max_charges || 3;
		for (let i = 0; i < charges; i++) {
			ctx.fillStyle = i < f.charges ? '#8250df' : '#d0d7de';
			ctx.fillRect(mx - w / 2 + i * (w / charges), my + 0.75 * v.scale + 3, w / charges - 2, 3);
		}
		if (f.potion) {
			ctx.fillStyle = '#2da44e';
			ctx.fillRect(mx + 0.75 * v.scale + 2, my - 3, 5, 6);
		}
		const r = 0.75 * v.scale, half = Math.max(w / 2, r);
		placeLabels({ x: mx - half - 2, y: my - r - 10, w: 2 * half + 11, h: 2 * r + 18 });
		// The timeline strip and its playhead.
		stripCtx.drawImage(stripImage, 0, 0);
		const px = 1 + (p / Math.max(1, log.last)) * (strip.width - 2);
		stripCtx.fillStyle = '#1f2328';
		stripCtx.fillRect(Math.round(px) - 1, 0, 2, strip.height);
	}

	// render draws the tick pos and, when the tick has changed, the
	// page's text.
	function render() {
		const started = performance.now();
		draw(pos);
		drawTimes.push(performance.now() - started);
		const t = Math.floor(pos);
		if (t === shownTick) return;
		shownTick = t;
		const f = log.frames[t];
		$('arena-tick').textContent = String(t);
		// Where the mage and the places' names were drawn, for a test to
		// check that they do not cross.
		canvas.dataset.placed = JSON.stringify(placed);
		$('arena-time').textContent = (t * log.layout.tick_seconds).toFixed(1) + ' s';
		$('arena-health').textContent = String(f.health) + (f.dead ? ' (fallen)' : '');
		$('arena-charges').textContent = String(f.charges) + (f.crystals ? ' + spare crystals' : '') + (f.potion ? ', a potion' : '');
		$('arena-killed').textContent = f.killed === undefined ? '?' : String(f.killed);
		$('arena-goal').textContent = log.goal[t] || '—';
		$('arena-doing').textContent = log.doing[t] || '—';
		$('arena-plan').textContent = log.plan[t] || '—';
		$('arena-scrubber').value = t;
		const ev = log.eventAt[t];
		if (ev !== shownEvent) {
			const list = $('arena-timeline');
			if (shownEvent >= 0 && list.children[shownEvent]) list.children[shownEvent].classList.remove('now');
			shownEvent = ev;
			const li = ev >= 0 ? list.children[ev] : null;
			if (li) {
				li.classList.add('now');
				// Keep it in view, scrolling the list only, not the page.
				const top = li.offsetTop, bottom = top + li.offsetHeight;
				if (top < list.scrollTop || bottom > list.scrollTop + list.clientHeight) list.scrollTop = top - list.clientHeight / 2;
			}
		}
	}

	function frame(now) {
		if (!playing) return;
		if (lastTime !== null) {
			const dt = now - lastTime;
			frameTimes.push(dt);
			pos += (dt / 1000) * (1 / log.layout.tick_seconds) * Number($('arena-speed').value);
		}
		lastTime = now;
		if (pos >= log.last) {
			pos = log.last;
			render();
			pause();
			figure.dataset.replay = 'ended';
			return;
		}
		render();
		requestAnimationFrame(frame);
	}

	function play() {
		if (!log) return;
		if (pos >= log.last) pos = 0;
		playing = true;
		lastTime = null;
		frameTimes = [];
		drawTimes = [];
		figure.dataset.replay = 'playing';
		$('arena-play').textContent = '❚❚ pause';
		requestAnimationFrame(frame);
	}

	// pause stops playing, noting the frames' times for whoever measures
	// them (the browser test prints them).
	function pause() {
		if (!playing) return;
		playing = false;
		figure.dataset.replay = 'paused';
		$('arena-play').textContent = '▶ play';
		if (frameTimes.length) {
			canvas.dataset.frames = frameTimes.length;
			canvas.dataset.frameMs = JSON.stringify(frameTimes.map((x) => Math.round(x * 100) / 100));
			canvas.dataset.drawMs = JSON.stringify(drawTimes.map((x) => Math.round(x * 1000) / 1000));
		}
	}

	function seek(tick) {
		if (!log) return;
		pos = Math.max(0, Math.min(log.last, tick));
		if (!playing) {
			render();
			figure.dataset.replay = 'paused';
		}
	}

	async function replayFight() {
		showError('arena-replay-error', '');
		const fight = Number($('arena-fight').value);
		const agent = $('arena-agent').value;
		const request = ran ? { domain: ran.domain, seed: ran.seed } : { domain: $('arena-domain').value, seed: Number($('arena-seed').value) };
		if (!Number.isInteger(fight) || fight < 0) {
			showError('arena-replay-error', 'fight must be a whole number from 0');
			return;
		}
		figure.dataset.replay = 'loading';
		try {
			const text = await (await ploy.fetchAPI('arena/fight', { ...request, fight, agent })).text();
			const name = `${agent}-${String(fight).padStart(2, '0')}.jsonl`;
			show(parseLog(text, name), `${name}: ${agent}, fight ${fight} of seed ${request.seed}, fought again on the server`);
		} catch (e) {
			showError('arena-replay-error', e.message);
			figure.dataset.replay = log ? 'paused' : 'error';
		}
	}

	async function openFile() {
		const file = $('arena-file').files[0];
		if (!file) return;
		showError('arena-replay-error', '');
		figure.dataset.replay = 'loading';
		try {
			if (file.size > maxLogBytes) bad(file.name, `${file.size} bytes, more than the ${maxLogBytes} a log may have`);
			const parsed = parseLog(await file.text(), file.name);
			const L = parsed.layout;
			show(parsed, `${file.name}: ${L.agent || 'an agent'}, fight ${L.fight ?? '?'} of seed ${L.seed ?? '?'}, from the file`);
		} catch (e) {
			showError('arena-replay-error', e.message);
			figure.dataset.replay = log ? 'paused' : 'error';
		}
	}

	// Before any batch, the replay offers every kind.
	ran = null;
	const agent = $('arena-agent');
	for (const input of document.querySelectorAll('#arena-kinds input')) agent.append(ploy.option(input.value));
	$('arena-run').addEventListener('click', runBatch);
	$('arena-replay-run').addEventListener('click', replayFight);
	$('arena-file').addEventListener('change', openFile);
	$('arena-play').addEventListener('click', () => (playing ? pause() : play()));
	$('arena-scrubber').addEventListener('input', (e) => seek(Number(e.target.value)));
	$('arena-timeline').addEventListener('click', (e) => {
		const li = e.target.closest('li');
		if (li) seek(Number(li.dataset.tick));
	});
	$('arena-timeline').addEventListener('keydown', (e) => {
		const li = e.target.closest('li');
		if (li && (e.key === 'Enter' || e.key === ' ')) {
			e.preventDefault();
			seek(Number(li.dataset.tick));
		}
	});
	figure.dataset.replay = 'none';
	figure.dataset.batch = 'none';
})();
