// Part 3: the side panel's fixed parts, the marks the player adds (the walk's cursor, the
// hop's label in a strip under the grid, so that it never covers a cell), what each step
// lights, and the texts of a fill step, a walk step and the end.
const tbody = document.querySelector('#counter-table tbody');
const counterCells = [];
for (let k = 0; k < P; k++) {
  const tr = document.createElement('tr');
  const hatch = Math.floor(k / data.rank_colours) % 3;
  tr.innerHTML = '<td><span class="swatch' + (hatch === 1 ? ' stripes' : hatch === 2 ? ' cross' : '') +
    '" style="background-color:var(--rank-' + (k % data.rank_colours) + ')"></span>p' + k + '</td><td></td><td></td><td></td>';
  tbody.appendChild(tr);
  counterCells.push(tr);
}
$('counter-note').textContent = solved
  ? 'sent and received count every kind: boundary messages in the fill, traceback hops in the walk, control messages at the end'
  : 'the boundary messages this schedule predicts, ' + unitName + ' by ' + unitName;
if (solved && data.per_rank) {
  const f = (v) => (v * 1e3).toFixed(2);
  let html = '<table class="times"><thead><tr><th>rank</th><th>compute ms</th><th>wait ms</th><th>send ms</th><th>hops</th></tr></thead><tbody>';
  data.per_rank.forEach((r) => {
    html += '<tr><td>p' + r.rank + '</td><td>' + f(r.fill_breakdown.compute) + '</td><td>' + f(r.fill_breakdown.wait_receive) +
      '</td><td>' + f(r.fill_breakdown.send) + '</td><td>' + r.traceback_hops + '</td></tr>';
  });
  html += '</tbody></table><p class="note">Where each rank\u2019s fill time went (this run, this machine), in milliseconds.</p>';
  if (data.control) html += '<p>' + esc(data.control) + '</p>';
  $('final-text').innerHTML = html;
}

const NS = 'http://www.w3.org/2000/svg';
const overlay = (cls) => {
  const r = document.createElementNS(NS, 'rect');
  r.setAttribute('class', cls);
  r.setAttribute('visibility', 'hidden');
  svg.appendChild(r);
  return r;
};
// The hovered (or clicked) cell and the three cells it reads, in their own colour: marks on
// top of the grid, apart from the current diagonal's outline; the walk's cursor over them.
const selectedMark = overlay('selected-cell');
const inputMarks = [0, 1, 2].map(() => overlay('input-cell'));
const cursor = overlay('walk-cursor');
const viewBox = svg.viewBox.baseVal;
// The hop's label lives in a strip under the grid (the timeline starts lower on a bands page),
// joined to its arrow by a leader drawn under the cells' texts.
if (!bands && !wave && walk.length > 0) {
  viewBox.height += 34;
  svg.setAttribute('height', viewBox.height);
}
const leader = document.createElementNS(NS, 'line');
leader.setAttribute('class', 'hop-leader');
leader.setAttribute('visibility', 'hidden');
const texts = svg.querySelector('.cell-texts');
if (texts) svg.insertBefore(leader, texts); else svg.appendChild(leader);
const hopLabel = document.createElementNS(NS, 'g');
hopLabel.setAttribute('class', 'hop-label');
hopLabel.setAttribute('visibility', 'hidden');
const hopBox = document.createElementNS(NS, 'rect');
const hopText = document.createElementNS(NS, 'text');
hopText.setAttribute('font-size', '16');
hopText.setAttribute('dominant-baseline', 'central');
hopLabel.append(hopBox, hopText);
svg.appendChild(hopLabel);

// ---- The state shown, changed incrementally.
let doneHi = 0;
let lit = [0, 0];
let walkShown = 0;
let receiving = [];
const toggle = (list, on) => list.forEach((e) => e.classList.toggle('on', on));
function setDone(hi) {
  for (let d = doneHi; d < hi; d++) { cellMarks[d].forEach((e) => e.classList.add('done')); spanMarks[d].forEach((e) => e.classList.add('done')); }
  for (let d = hi; d < doneHi; d++) { cellMarks[d].forEach((e) => e.classList.remove('done')); spanMarks[d].forEach((e) => e.classList.remove('done')); }
  doneHi = hi;
}
// The marks a message of unit d reaches: the neighbour cell its receiver owns, or the first
// column of the receiving band in the batch's rows (its block, when cells are not drawn).
function receivers(e) {
  if (wave) return e.values > 0 ? [laneRank.get(e.step + ',' + e.to)] : [];
  if (!bands) {
    const [i, j] = e.i + 1 < m && owner(e.i + 1, e.j) === e.to ? [e.i + 1, e.j] : [e.i, e.j + 1];
    return [cellRect.get(i * n + j)];
  }
  const b = Math.floor(e.i / bands.batch);
  if (blocksDetail) return [blockRect.get(e.to + ',' + b)];
  const [r0, r1] = batchRows(b);
  const out = [];
  for (let i = r0; i < r1; i++) out.push(cellRect.get(i * n + bands.cols[e.to][0]));
  return out;
}
function setLit(lo, hi) {
  for (let d = lit[0]; d < lit[1]; d++) { toggle(arrows[d], false); toggle(outlines[d], false); toggle(dLabels[d], false); toggle(spanMarks[d], false); }
  // The step's first diagonal is always numbered (its neighbours' numbers make room).
  for (let d = lo; d < hi; d++) { toggle(arrows[d], true); toggle(outlines[d], true); toggle(spanMarks[d], true); }
  if (hi > lo) toggle(dLabels[lo], true);
  receiving.forEach((r) => r.classList.remove('receiving'));
  receiving = [];
  for (let d = lo; d < hi; d++) {
    byUnit[d].forEach((e) => receivers(e).forEach((r) => {
      if (r) { r.classList.add('receiving'); receiving.push(r); }
    }));
  }
  lit = [lo, hi];
  declutter();
  if (nowLine) {
    let end = -1;
    let x = null;
    for (let d = lo; d < hi; d++) {
      spanMarks[d].forEach((e) => {
        if (e.classList.contains('span') && num(e, 'end') > end) { end = num(e, 'end'); x = Number(e.getAttribute('x')) + Number(e.getAttribute('width')); }
      });
    }
    nowLine.setAttribute('visibility', x === null ? 'hidden' : 'visible');
    if (x !== null) { nowLine.setAttribute('x1', x); nowLine.setAttribute('x2', x); }
  }
}
// Frames cell (i, j) with `mark`, at least `least` units a side (a cell of a block grid is
// smaller than its frame).
function frame(mark, i, j, least) {
  const grow = (at, size) => (size >= least ? [at, size] : [at - (least - size) / 2, least]);
  const [x, w] = grow(cellX(j), cellW);
  const [y, h] = grow(cellY(i), cellH);
  mark.setAttribute('x', x);
  mark.setAttribute('y', y);
  mark.setAttribute('width', w);
  mark.setAttribute('height', h);
}
function setWalk(k) {
  const change = (t, on) => {
    const [i, j] = walk[t];
    if (t > 0) walkSteps[t - 1].classList.toggle('on', on);
    if (t > 0 && hopMarks.has(t - 1)) hopMarks.get(t - 1).classList.toggle('on', on);
    if (t > 0 && hopHalos.has(t - 1)) hopHalos.get(t - 1).classList.toggle('on', on);
    if (discs.has(t)) discs.get(t).classList.toggle('on', on);
    const text = discTexts.get(i * n + j);
    if (text && discs.has(t)) text.classList.toggle('lit', on);
  };
  for (let t = walkShown; t < k; t++) change(t, true);
  for (let t = k; t < walkShown; t++) change(t, false);
  walkShown = k;
  if (k > 0) frame(cursor, walk[k - 1][0], walk[k - 1][1], 10);
  // The cell a hop has just reached is framed in the hop's red: its arrow lies under values.
  cursor.classList.toggle('hop-cursor', k > 1 && hopMarks.has(k - 2));
  cursor.setAttribute('visibility', k > 0 && k <= walk.length ? 'visible' : 'hidden');
}
function showHopLabel(hops) {
  if (hops.length === 0) { hopLabel.setAttribute('visibility', 'hidden'); leader.setAttribute('visibility', 'hidden'); return; }
  const h = hops[hops.length - 1];
  const box = hopMarks.get(h.t).getBBox();
  const carried = edit ? (h.prefix || '') : '"' + (h.prefix || '') + '"';
  const px = hopPx();
  hopText.setAttribute('font-size', px);
  hopText.textContent = 'hop p' + h.from + ' \u2192 p' + h.to + ': next cell (' + h.i + ', ' + h.j + '), path ' + carried + ', ' + h.bytes + ' B';
  const w = hopText.getComputedTextLength() + 14;
  const cx = box.x + box.width / 2;
  // Under the grid, or under the projector's window.
  const [left, right, bottom] = win ? [cellX(win.c0), cellX(win.c0 + win.C - 1) + cellW, cellY(win.r0 + win.R)]
    : [0, viewBox.width, gridBottom];
  const x = Math.max(left + 2, Math.min(right - w - 2, cx - w / 2));
  const half = px * 0.75;
  const y = bottom + 4 + half;
  hopBox.setAttribute('x', x);
  hopBox.setAttribute('y', y - half);
  hopBox.setAttribute('width', w);
  hopBox.setAttribute('height', 2 * half);
  hopBox.setAttribute('rx', 4);
  hopText.setAttribute('x', x + 7);
  hopText.setAttribute('y', y);
  leader.setAttribute('x1', cx);
  leader.setAttribute('y1', box.y + box.height / 2);
  leader.setAttribute('x2', cx);
  leader.setAttribute('y2', y - half);
  leader.setAttribute('visibility', 'visible');
  hopLabel.setAttribute('visibility', 'visible');
}

// A count with its noun and verb: "no message goes", "1 message goes", "3 messages go".
const counted = (k, one, many) => (k === 0 ? 'no ' + one : plural(k, one, many));

function fillTexts(st) {
  const ds = [];
  for (let d = st.lo; d < st.hi; d++) ds.push(d);
  const msgs = ds.flatMap((d) => byUnit[d]);
  const pairs = new Map();
  msgs.forEach((e) => { const key = 'p' + e.from + '\u2192p' + e.to; pairs.set(key, (pairs.get(key) || 0) + 1); });
  const pairText = Array.from(pairs, ([k, v]) => k + ' ' + v).join(', ');
  const name = ds.length === 1 ? unitName + (bands ? ' ' : wave ? ' s = ' : ' d = ') + st.lo : unitName + 's ' + st.lo + '\u2013' + (st.hi - 1);
  $('phase').textContent = 'Fill: ' + name + ' (of 0\u2013' + (D - 1) + ')';
  const d = st.lo;
  if (bands) return bandsTexts(d, msgs, pairText);
  if (wave) return waveTexts(st, msgs);
  const sp = split(d);
  $('what').innerHTML = 'The ranks compute ' + (ds.length === 1 ? 'the ' + plural(sp.L, 'cell', 'cells') + ' of diagonal ' + d +
    ', ' + plural(sp.p, 'rank', 'ranks') + ' at once' : 'these diagonals, one after the other') +
    '. Then ' + counted(msgs.length, 'boundary message goes', 'boundary messages go') + ' to a neighbour' +
    (pairText ? ' (' + pairText + ')' : '') + (msgs.length > 0 ? ': a value that a cell of the next diagonals needs and its owner lacks.' : ': no cell of it has a neighbour below, or else to the right, that another rank owns.');
  let f = '<p><code>d = i + j = ' + d + '</code>' + (ds.length > 1 ? ' (first of this step)' : '') + '</p>' +
    '<p><code>L(d) = min(d + 1, m, m + n \u2212 1 \u2212 d) = min(' + (d + 1) + ', ' + m + ', ' + (m + n - 1 - d) + ') = ' + sp.L + '</code></p>' +
    '<p><code>p = min(P, L) = min(' + P + ', ' + sp.L + ') = ' + sp.p + '</code></p>' +
    '<p><code>c = \u2308L/p\u2309 = ' + sp.c + ', f = \u230AL/p\u230B = ' + sp.f + ', r = L mod p = ' + sp.r + '</code></p>' +
    '<p>rank k &lt; r owns positions <code>[k\u00B7c, k\u00B7c + c)</code>, r \u2264 k &lt; p owns <code>[r\u00B7c + (k \u2212 r)\u00B7f, \u2026 + f)</code>; position 0 is the top-right end, <code>row = ' + firstRow(d) + ' + pos</code>:</p>';
  for (let k = 0; k < sp.p; k++) {
    const [s, e] = diagStartEnd(d, k);
    f += '<p class="seg"><code>diag_start_end(' + d + ', ' + k + ') = [' + s + ', ' + e + ')</code> \u2192 p' + k + ', ' + rowsOf(d, s, e) + '</p>';
  }
  if (P > sp.p) f += '<p class="seg">p' + sp.p + (P - 1 > sp.p ? '..p' + (P - 1) : '') + ': nothing on this diagonal</p>';
  f += '<p>Sends: the owner of (i, j) sends its value down if another rank owns (i + 1, j), else right if another rank owns (i, j + 1).</p>';
  $('formula-text').innerHTML = f;
}

function bandsTexts(s, msgs, pairText) {
  const at = [];
  for (let k = 0; k < active; k++) {
    const b = s - k;
    if (b >= 0 && b < bands.batches) at.push('p' + k + ' batch ' + b + ' (rows ' + batchRows(b)[0] + '\u2013' + (batchRows(b)[1] - 1) + ')');
  }
  $('what').innerHTML = 'At stage ' + s + ' ' + (at.length ? at.join(', ') : 'no band') + (at.length === 1 ? ' computes' : ' compute, side by side') +
    '. Then ' + counted(msgs.length, 'message of carries goes', 'messages of carries go') + ' to the next band' + (pairText ? ' (' + pairText + ')' : '') +
    (msgs.length > 0 ? ': one bit per row, the carry out of the band\u2019s last word, which the next band needs to start the same rows.'
      : active < 2 ? ': there is no next band.' : ': the last band has no band after it.');
  const B = bands.batch;
  let f = '<p><code>stage s = band k + batch b = ' + s + '</code>: band k computes batch <code>s \u2212 k</code></p>' +
    '<p>words of ' + bands.word + ' columns' + (bands.teaching ? ' (<b>a teaching word</b>: the engine\u2019s are 64)' : '') + ', ' +
    plural(active, 'band', 'bands') + ' of whole words, batches of <code>B = ' + B + '</code> rows: <code>\u2308m / B\u2309 = \u2308' + m + ' / ' + B + '\u2309 = ' + bands.batches + '</code> batches</p>' +
    '<p>stages: <code>batches + bands \u2212 1 = ' + bands.batches + ' + ' + active + ' \u2212 1 = ' + bands.stages + '</code></p>' +
    '<p>messages: <code>(bands \u2212 1) \u00B7 batches = ' + (active - 1) + ' \u00B7 ' + bands.batches + ' = ' + (active - 1) * bands.batches + '</code>, each <code>\u2308B / 64\u2309 \u00B7 8 = ' + Math.ceil(B / 64) * 8 * (edit ? 2 : 1) + '</code> bytes' + (edit ? ' (two bits per row: the edit distance\u2019s vertical step)' : '') + '</p>';
  for (let k = 0; k < active; k++) f += '<p class="seg">p' + k + ': columns ' + bands.cols[k][0] + '\u2013' + (bands.cols[k][1] - 1) + '</p>';
  $('formula-text').innerHTML = f;
}

// What a hop carries, in words.
function hopContent(h) {
  const moves = plural(h.moves, 'move', 'moves');
  return 'the next cell (' + h.i + ', ' + h.j + ') and the path so far, ' + moves +
    (edit ? ' (CIGAR so far ' + (h.prefix || '') + ')' : ' (its matches, the LCS so far: "' + (h.prefix || '') + '")') +
    ', ' + h.bytes + ' bytes';
}
