// Layered graphs laid out by dagre (dagre.min.js) and drawn as SVG with
// the classes style.css gives figure 2's search graph and figure 8's
// action graph (.graph, g.node with a rect and its texts, g.edge with a
// polyline and its label): one drawing, used by figure 2 and by the
// inspector's page for an agent's last search. Load it after common.js
// and dagre.min.js.
'use strict';

(function () {
	const el = ploy.svg;

	// draw lays out spec and builds its SVG:
	//   spec.graph: dagre's graph options (rankdir, nodesep, ...);
	//   spec.nodes: [{id, width, height, cls, label, note, title, rx, y, data}]
	//     (label's baseline at y, 4 by default; note, if given, a second
	//     line at 12);
	//   spec.edges: [{from, to, name, label, cls, width, height, labelpos, arrow}];
	//   spec.aria: the SVG's label; spec.cls: its classes besides graph;
	//   spec.maxWidth and spec.scale: its width on the page, the layout's
	//     times scale (1), at most maxWidth (880);
	//   spec.arrows: the id prefix of arrowhead markers (ID and ID-chain),
	//     when edges are directed.
	// It returns {svg, nodes: Map id → {group, title, note, at}, edges:
	// [{edge, group}], size}.
	function draw(spec) {
		const g = new dagre.graphlib.Graph({ multigraph: true });
		g.setGraph(spec.graph);
		g.setDefaultEdgeLabel(() => ({}));
		for (const n of spec.nodes) g.setNode(n.id, { width: n.width, height: n.height });
		for (const e of spec.edges) {
			g.setEdge(e.from, e.to, { width: e.width || 6.2 * (e.label || '').length + 8, height: e.height || 18, labelpos: e.labelpos || 'c' }, e.name);
		}
		dagre.layout(g);
		const size = g.graph();
		const svg = el('svg', { viewBox: '0 0 ' + Math.ceil(size.width) + ' ' + Math.ceil(size.height), role: 'img', 'aria-label': spec.aria || 'a graph' });
		svg.classList.add('graph', ...(spec.cls || []));
		svg.setAttribute('width', String(Math.min(Math.ceil(size.width * (spec.scale || 1)), spec.maxWidth || 880)));
		const parts = { svg, nodes: new Map(), edges: [], size };
		const defs = el('defs');
		if (spec.arrows) {
			for (const [id, cls] of [[spec.arrows, 'arrow'], [spec.arrows + '-chain', 'arrow chain']]) {
				const m = el('marker', { id, viewBox: '0 0 10 10', refX: '9', refY: '5', markerWidth: '7', markerHeight: '7', orient: 'auto-start-reverse' });
				m.append(el('path', { d: 'M0,0 L10,5 L0,10 z', class: cls }));
				defs.append(m);
			}
		}
		const edges = el('g'), nodes = el('g');
		for (const e of spec.edges) {
			const at = g.edge({ v: e.from, w: e.to, name: e.name });
			const group = el('g', { class: 'edge' + (e.cls ? ' ' + e.cls : '') });
			const line = el('polyline', { points: at.points.map((p) => p.x.toFixed(1) + ',' + p.y.toFixed(1)).join(' ') });
			if (e.arrow) line.setAttribute('marker-end', 'url(#' + e.arrow + ')');
			// Just above the line, which runs through the label's centre.
			group.append(line, el('text', { x: at.x.toFixed(1), y: (at.y - 3).toFixed(1) }, e.label || ''));
			edges.append(group);
			parts.edges.push({ edge: e, group });
		}
		for (const n of spec.nodes) {
			const p = g.node(n.id);
			const group = el('g', { class: 'node' + (n.cls ? ' ' + n.cls : ''), transform: 'translate(' + p.x.toFixed(1) + ',' + p.y.toFixed(1) + ')', tabindex: '0' });
			Object.assign(group.dataset, n.data || {});
			if (n.title) group.append(el('title', {}, n.title));
			group.append(el('rect', { x: -p.width / 2, y: -p.height / 2, width: p.width, height: p.height, rx: n.rx === undefined ? 5 : n.rx }));
			const title = el('text', { y: n.y === undefined ? 4 : n.y, class: 'name' }, n.label);
			group.append(title);
			let note = null;
			if (n.note !== undefined) {
				note = el('text', { y: 12, class: 'note' }, n.note);
				group.append(note);
			}
			nodes.append(group);
			parts.nodes.set(n.id, { group, title, note, at: p });
		}
		svg.append(defs, edges, nodes);
		return parts;
	}

	window.ployGraph = Object.freeze({ draw });
})();
