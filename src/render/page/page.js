// The classroom page's player: steps through the fill (one diagonal, or a group of diagonals,
// per step), then the traceback walk (one cell per step), then the end of the walk. It reads the
// run's data from the `run-data` block, works out owners and segments from the schedule's
// formulas (the report's `diag_start_end` and `cell_proc`) and checks them against the grid's
// marks. Every state change only touches the marks that change, so a 64 x 64 grid steps
// instantly. Its words follow the run's problem (`data.problem`): the LCS, with the values
// M[i][j], or the edit distance, with D[i][j] and the alignment as a CIGAR. It replays the walk's
// rule on the recorded values and checks it against the recorded walk and the report's CIGAR.
// Tests drive it through `window.lcsPage` (info, go, state, playAll, problems).
'use strict';
(function () {
  const data = JSON.parse(document.getElementById('run-data').textContent);
  const m = data.rows;
  const n = data.cols;
  const P = data.ranks;
  const D = m === 0 ? 0 : m + n - 1;
  const solved = data.command === 'solve';
  const edit = data.problem === 'edit';
  const V = edit ? 'D' : 'M';
  const svg = document.querySelector('#figure svg');
  svg.setAttribute('preserveAspectRatio', 'xMidYMin meet');
  const $ = (id) => document.getElementById(id);
  const problems = [];
  document.body.classList.add('live');

  // ---- The schedule's formulas, as the report names them (src/schedule.rs).
  const diagLen = (d) => Math.min(d + 1, m, m + n - 1 - d);
  const firstRow = (d) => Math.max(0, d - n + 1);
  const pos = (i, j) => Math.min(i, n - 1 - j);
  function split(d) {
    const L = diagLen(d);
    const p = Math.min(P, L);
    const f = Math.floor(L / p);
    const r = L % p;
    return { L, p, c: r === 0 ? f : f + 1, f, r };
  }
  function diagStartEnd(d, k) {
    const { L, p, c, f, r } = split(d);
    if (k >= p) return [L, L];
    if (k < r) return [k * c, k * c + c];
    const s = r * c + (k - r) * f;
    return [s, s + f];
  }
  function cellProc(i, j) {
    const q = pos(i, j);
    const { c, f, r } = split(i + j);
    return q < c * r ? Math.floor(q / c) : Math.floor((q - r) / f);
  }

  // ---- Labels.
  const byteLabel = (b) => (b > 32 && b < 127 ? String.fromCharCode(b) : b.toString(16).padStart(2, '0'));
  const quoted = (b) => (b > 32 && b < 127 ? "'" + String.fromCharCode(b) + "'" : '0x' + byteLabel(b));
  const showBytes = (bytes) => bytes.map((b) => (b >= 32 && b < 127 ? String.fromCharCode(b) : '\\x' + byteLabel(b))).join('');
  const rows = (d, s, e) => {
    if (s >= e) return 'no cell';
    const a = firstRow(d) + s;
    const b = firstRow(d) + e - 1;
    return a === b ? 'row ' + a : 'rows ' + a + '\u2013' + b;
  };
  const esc = (t) => String(t).replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c]);
  const plural = (k, one, many) => k + ' ' + (k === 1 ? one : many);

  // ---- The grid's marks, indexed by what they mean.
  const num = (e, key) => Number(e.dataset[key]);
  const perDiagonal = () => Array.from({ length: D }, () => []);
  const cellMarks = perDiagonal();
  const cellRect = new Map();
  svg.querySelectorAll('.cell, .cell-text, .hatch').forEach((e) => {
    const i = num(e, 'i');
    const j = num(e, 'j');
    cellMarks[i + j].push(e);
    if (e.classList.contains('cell')) {
      cellRect.set(i * n + j, e);
      if (num(e, 'owner') !== cellProc(i, j)) problems.push('cell (' + i + ', ' + j + ') owner ' + e.dataset.owner + ', cell_proc says ' + cellProc(i, j));
    }
  });
  const arrows = perDiagonal();
  svg.querySelectorAll('.message').forEach((e) => arrows[num(e, 'd')].push(e));
  const outlines = perDiagonal();
  svg.querySelectorAll('.diagonal').forEach((e) => outlines[num(e, 'd')].push(e));
  const dLabels = perDiagonal();
  svg.querySelectorAll('.diagonal-label').forEach((e) => dLabels[num(e, 'd')].push(e));
  const walk = data.walk;
  const walkSteps = [];
  svg.querySelectorAll('.walk-step').forEach((e) => { walkSteps[num(e, 't')] = e; });
  const discs = new Map();
  svg.querySelectorAll('.match').forEach((e) => discs.set(num(e, 't'), e));
  const discTexts = new Map();
  svg.querySelectorAll('.cell-text[data-disc]').forEach((e) => discTexts.set(num(e, 'i') * n + num(e, 'j'), e));
  const hopMarks = new Map();
  svg.querySelectorAll('.hop').forEach((e) => hopMarks.set(num(e, 't'), e));
  const hopHalos = new Map();
  svg.querySelectorAll('.hop-halo').forEach((e) => hopHalos.set(num(e, 't'), e));

  const events = data.events;
  const boundary = events.filter((e) => e.kind === 'boundary');
  const control = events.filter((e) => e.kind === 'control');
  const tracebackCount = events.filter((e) => e.kind === 'traceback').length;
  if (svg.querySelectorAll('.message').length !== boundary.length) problems.push('arrows and boundary messages differ');
  if (tracebackCount !== data.hops.length || hopMarks.size !== data.hops.length) problems.push('hops and traceback messages differ');
  if (walk.length > 0 && walkSteps.length !== walk.length - 1) problems.push('walk steps and walk cells differ');
  const byDiagonal = perDiagonal();
  boundary.forEach((e) => byDiagonal[e.diagonal].push(e));

  // ---- The walk's rule, replayed on the recorded values: each cell's move (0 match,
  // 1 substitution, 2 up, 3 left), where it leads, and the alignment the moves spell.
  const value = (a, b) => (a >= 0 && b >= 0 ? data.values[a][b] : edit ? a + b + 2 : 0);
  function moveAt(i, j) {
    if (data.x[i] === data.y[j]) return 0;
    if (!edit) return value(i - 1, j) >= value(i, j - 1) ? 2 : 3;
    const less = value(i, j) - 1;
    if (value(i - 1, j - 1) === less) return 1;
    return value(i - 1, j) === less ? 2 : 3;
  }
  const target = (i, j, mv) => (mv <= 1 ? [i - 1, j - 1] : mv === 2 ? [i - 1, j] : [i, j - 1]);
  const walkMoves = walk.map(([i, j]) => moveAt(i, j));
  walk.forEach(([i, j], t) => {
    const [a, b] = target(i, j, walkMoves[t]);
    const inside = a >= 0 && b >= 0;
    const recorded = walk[t + 1];
    if (recorded ? !inside || recorded[0] !== a || recorded[1] !== b : inside) {
      problems.push('the walk\u2019s rule at (' + i + ', ' + j + ') leads to (' + a + ', ' + b + '), not where the walk went');
    }
  });
  // Once the walk leaves the matrix, the rest of the path runs along the border.
  const tail = [];
  if (walk.length > 0) {
    const [i, j] = walk[walk.length - 1];
    const [a, b] = target(i, j, walkMoves[walk.length - 1]);
    for (let k = 0; k <= b && a < 0; k++) tail.push(3);
    for (let k = 0; k <= a && b < 0; k++) tail.push(2);
  }
  // The CIGAR of the first k cells' moves (the whole path when k is the walk's length).
  function cigarSoFar(k) {
    const moves = walkMoves.slice(0, k).concat(k === walk.length ? tail : []);
    let out = '';
    let run = 0;
    let last = '';
    for (let t = moves.length - 1; t >= 0; t--) {
      const op = data.cigar_ops[moves[t]];
      if (op !== last && run > 0) { out += run + last; run = 0; }
      last = op;
      run++;
    }
    return run > 0 ? out + run + last : out;
  }
  if (solved && walk.length > 0 && cigarSoFar(walk.length) !== data.cigar) {
    problems.push('the walk spells ' + cigarSoFar(walk.length) + ', the report says ' + data.cigar);
  }

  // ---- The steps: fill groups, walk groups, then the end (a solved run only).
  const fragment = new URLSearchParams(location.hash.slice(1));
  const group = Math.max(1, Number(fragment.get('group')) || data.steps.group);
  const walkGroup = Math.max(1, Number(fragment.get('walk_group')) || data.steps.walk_group);
  const F = D === 0 ? 0 : Math.ceil(D / group);
  const W = walk.length === 0 ? 0 : Math.ceil(walk.length / walkGroup);
  const E = solved ? 1 : 0;
  const S = Math.max(1, F + W + E);
  function stepOf(s) {
    if (s < F) return { phase: 'fill', lo: s * group, hi: Math.min(D, (s + 1) * group) };
    if (s < F + W) {
      const t = s - F;
      return { phase: 'walk', from: Math.min(walk.length, t * walkGroup), shown: Math.min(walk.length, (t + 1) * walkGroup) };
    }
    return { phase: solved ? 'end' : 'empty' };
  }

  // Per-rank counters after each step: cells computed, messages sent and received.
  const counts = [];
  {
    const cells = new Array(P).fill(0);
    const sent = new Array(P).fill(0);
    const received = new Array(P).fill(0);
    const snapshot = () => counts.push({ cells: cells.slice(), sent: sent.slice(), received: received.slice() });
    let d = 0;
    let hop = 0;
    for (let s = 0; s < S; s++) {
      const st = stepOf(s);
      if (st.phase === 'fill') {
        for (; d < st.hi; d++) {
          for (let k = 0; k < Math.min(P, diagLen(d)); k++) {
            const [a, b] = diagStartEnd(d, k);
            cells[k] += b - a;
          }
          byDiagonal[d].forEach((e) => { sent[e.from]++; received[e.to]++; });
        }
      } else if (st.phase === 'walk') {
        for (; hop < data.hops.length && data.hops[hop].t < st.shown - 1; hop++) {
          sent[data.hops[hop].from]++;
          received[data.hops[hop].to]++;
        }
      } else if (st.phase === 'end') {
        control.forEach((e) => { sent[e.from]++; received[e.to]++; });
      }
      snapshot();
    }
  }

  // ---- The side panel's fixed parts.
  const tbody = document.querySelector('#counter-table tbody');
  const counterCells = [];
  for (let k = 0; k < P; k++) {
    const tr = document.createElement('tr');
    const hatch = Math.floor(k / data.rank_colours) % 3;
    tr.innerHTML = '<td><span class="swatch' + (hatch === 1 ? ' stripes' : hatch === 2 ? ' cross' : '') +
      '" style="background-color:' + data.palette[k % data.rank_colours] + '"></span>p' + k + '</td><td></td><td></td><td></td>';
    tbody.appendChild(tr);
    counterCells.push(tr);
  }
  $('counter-note').textContent = solved
    ? 'sent and received count every kind: boundary values in the fill, traceback hops in the walk, control messages at the end'
    : 'the boundary messages this schedule predicts, diagonal by diagonal';
  if (solved && data.per_rank) {
    const f = (v) => v.toFixed(6);
    let html = '<table><thead><tr><th>rank</th><th>compute s</th><th>wait s</th><th>send s</th><th>hops</th></tr></thead><tbody>';
    data.per_rank.forEach((r) => {
      html += '<tr><td>p' + r.rank + '</td><td>' + f(r.fill_breakdown.compute) + '</td><td>' + f(r.fill_breakdown.wait_receive) +
        '</td><td>' + f(r.fill_breakdown.send) + '</td><td>' + r.traceback_hops + '</td></tr>';
    });
    html += '</tbody></table><p class="note">Where each rank\u2019s fill time went (this run, this machine).</p>';
    if (data.control) html += '<p>' + esc(data.control) + '</p>';
    $('final-text').innerHTML = html;
  }

  // ---- Marks added by the player: the walk's cursor and the current hop's payload.
  const NS = 'http://www.w3.org/2000/svg';
  const cursor = document.createElementNS(NS, 'rect');
  cursor.setAttribute('class', 'walk-cursor');
  cursor.setAttribute('visibility', 'hidden');
  svg.appendChild(cursor);
  const hopLabel = document.createElementNS(NS, 'g');
  hopLabel.setAttribute('class', 'hop-label');
  hopLabel.setAttribute('visibility', 'hidden');
  const hopBox = document.createElementNS(NS, 'rect');
  const hopText = document.createElementNS(NS, 'text');
  hopText.setAttribute('font-size', '14');
  hopText.setAttribute('dominant-baseline', 'central');
  hopLabel.append(hopBox, hopText);
  svg.appendChild(hopLabel);
  const viewBox = svg.viewBox.baseVal;

  // ---- The state shown, changed incrementally.
  let current = -1;
  let doneHi = 0;
  let lit = [0, 0];
  let walkShown = 0;
  const toggle = (list, on) => list.forEach((e) => e.classList.toggle('on', on));
  function setDone(hi) {
    for (let d = doneHi; d < hi; d++) cellMarks[d].forEach((e) => e.classList.add('done'));
    for (let d = hi; d < doneHi; d++) cellMarks[d].forEach((e) => e.classList.remove('done'));
    doneHi = hi;
  }
  function setLit(lo, hi) {
    for (let d = lit[0]; d < lit[1]; d++) { toggle(arrows[d], false); toggle(outlines[d], false); toggle(dLabels[d], false); }
    for (let d = lo; d < hi; d++) { toggle(arrows[d], true); toggle(outlines[d], true); toggle(dLabels[d], true); }
    lit = [lo, hi];
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
    if (k > 0) {
      const [i, j] = walk[k - 1];
      const r = cellRect.get(i * n + j);
      cursor.setAttribute('x', r.getAttribute('x'));
      cursor.setAttribute('y', r.getAttribute('y'));
      cursor.setAttribute('width', r.getAttribute('width'));
      cursor.setAttribute('height', r.getAttribute('height'));
    }
    cursor.setAttribute('visibility', k > 0 && k <= walk.length ? 'visible' : 'hidden');
  }
  function found(k) {
    const bytes = [];
    for (let t = 0; t < k; t++) {
      const [i, j] = walk[t];
      if (data.x[i] === data.y[j]) bytes.push(data.x[i]);
    }
    return bytes.reverse();
  }
  function showHopLabel(hops) {
    if (hops.length === 0) { hopLabel.setAttribute('visibility', 'hidden'); return; }
    const h = hops[hops.length - 1];
    const mark = hopMarks.get(h.t);
    const box = mark.getBBox();
    const carried = edit ? (h.prefix || '') : '"' + (h.prefix || '') + '"';
    hopText.textContent = 'p' + h.from + ' \u2192 p' + h.to + ': (' + h.i + ', ' + h.j + ') ' + carried + ' ' + h.bytes + ' B';
    const w = hopText.getComputedTextLength() + 12;
    let x = box.x + box.width + 6;
    let y = box.y - 16;
    if (x + w > viewBox.width) x = Math.max(0, box.x - w - 6);
    if (y < 12) y = box.y + box.height + 16;
    hopBox.setAttribute('x', x);
    hopBox.setAttribute('y', y - 11);
    hopBox.setAttribute('width', w);
    hopBox.setAttribute('height', 22);
    hopBox.setAttribute('rx', 4);
    hopText.setAttribute('x', x + 6);
    hopText.setAttribute('y', y);
    hopLabel.setAttribute('visibility', 'visible');
  }

  function fillTexts(st) {
    const ds = [];
    for (let d = st.lo; d < st.hi; d++) ds.push(d);
    const msgs = ds.flatMap((d) => byDiagonal[d]);
    const pairs = new Map();
    msgs.forEach((e) => { const key = 'p' + e.from + '\u2192p' + e.to; pairs.set(key, (pairs.get(key) || 0) + 1); });
    const pairText = Array.from(pairs, ([k, v]) => k + ' ' + v).join(', ');
    const name = ds.length === 1 ? 'diagonal d = ' + st.lo : 'diagonals d = ' + st.lo + '\u2013' + (st.hi - 1);
    $('phase').textContent = 'Fill: ' + name + ' (of 0\u2013' + (D - 1) + ')';
    const d = st.lo;
    const sp = split(d);
    $('what').innerHTML = 'The ranks compute ' + (ds.length === 1 ? 'the ' + plural(sp.L, 'cell', 'cells') + ' of diagonal ' + d +
      ', ' + plural(sp.p, 'rank', 'ranks') + ' at once' : 'these diagonals, one after the other') +
      '. Then ' + plural(msgs.length, 'boundary message goes', 'boundary messages go') + ' to a neighbour' +
      (pairText ? ' (' + pairText + ')' : '') + ': a value that a cell of the next diagonals needs and its owner lacks.';
    let f = '<p><code>d = i + j = ' + d + '</code>' + (ds.length > 1 ? ' (first of this step)' : '') + '</p>' +
      '<p><code>L(d) = min(d + 1, m, m + n \u2212 1 \u2212 d) = min(' + (d + 1) + ', ' + m + ', ' + (m + n - 1 - d) + ') = ' + sp.L + '</code></p>' +
      '<p><code>p = min(P, L) = min(' + P + ', ' + sp.L + ') = ' + sp.p + '</code></p>' +
      '<p><code>c = \u2308L/p\u2309 = ' + sp.c + ', f = \u230AL/p\u230B = ' + sp.f + ', r = L mod p = ' + sp.r + '</code></p>' +
      '<p>rank k &lt; r owns positions <code>[k\u00B7c, k\u00B7c + c)</code>, r \u2264 k &lt; p owns <code>[r\u00B7c + (k \u2212 r)\u00B7f, \u2026 + f)</code>; position 0 is the top-right end, <code>row = ' + firstRow(d) + ' + pos</code>:</p>';
    for (let k = 0; k < sp.p; k++) {
      const [s, e] = diagStartEnd(d, k);
      f += '<p class="seg"><code>diag_start_end(' + d + ', ' + k + ') = [' + s + ', ' + e + ')</code> \u2192 p' + k + ', ' + rows(d, s, e) + '</p>';
    }
    if (P > sp.p) f += '<p class="seg">p' + sp.p + (P - 1 > sp.p ? '..p' + (P - 1) : '') + ': nothing on this diagonal</p>';
    f += '<p>Sends: the owner of (i, j) sends its value down if another rank owns (i + 1, j), else right if another rank owns (i, j + 1).</p>';
    $('formula-text').innerHTML = f;
  }

  // What a hop carries, in words.
  function hopContent(h) {
    const moves = plural(h.moves, 'move', 'moves');
    return 'the next cell (' + h.i + ', ' + h.j + ') and the path so far, ' + moves +
      (edit ? ' (CIGAR so far ' + (h.prefix || '') + ')' : ' (its matches, the LCS so far: "' + (h.prefix || '') + '")') +
      ', ' + h.bytes + ' bytes';
  }

  // The rule's decision at (i, j): what the walk does, and the formulas behind it.
  function ruleAt(i, j, mv) {
    const xi = quoted(data.x[i]);
    const yj = quoted(data.y[j]);
    const next = target(i, j, mv);
    const to = ' to (' + next.join(', ') + ')';
    const c = (t) => '<code>' + t + '</code>';
    const same = c('x[' + i + '] = ' + esc(xi) + ' = y[' + j + ']');
    const differ = c('x[' + i + '] = ' + esc(xi) + ' \u2260 y[' + j + '] = ' + esc(yj));
    if (!edit) {
      if (mv === 0) {
        return { move: 'a match: ' + xi + ' joins the LCS, and the walk goes diagonally' + to,
          rule: '<p>' + same + ': match, prepend it, go to ' + c('(i \u2212 1, j \u2212 1)') + '</p>' };
      }
      const up = value(i - 1, j);
      const left = value(i, j - 1);
      const dir = mv === 2 ? 'up' : 'left';
      return { move: 'no match, so the walk goes ' + dir + to,
        rule: '<p>' + differ + ': ' + c('M[i\u22121][j] = ' + up + (up >= left ? ' \u2265 ' : ' &lt; ') + 'M[i][j\u22121] = ' + left) + ', so ' + dir + '</p>' };
    }
    const here = value(i, j);
    const [dg, up, left] = [value(i - 1, j - 1), value(i - 1, j), value(i, j - 1)];
    if (mv === 0) {
      return { move: 'a match: ' + xi + ' is aligned with itself (=), at no cost, and the walk goes diagonally' + to,
        rule: '<p>' + same + ': match, ' + c('D[i][j] = D[i\u22121][j\u22121] = ' + here) + ', go to ' + c('(i \u2212 1, j \u2212 1)') + '</p>' };
    }
    let rule = '<p>' + differ + ': ' + c('D[i][j] = 1 + min(D[i\u22121][j\u22121], D[i\u22121][j], D[i][j\u22121]) = 1 + min(' + dg + ', ' + up + ', ' + left + ') = ' + here) + '</p>';
    const less = 'D[i][j] \u2212 1 = ' + (here - 1);
    let move;
    if (mv === 1) {
      move = 'no match, and ' + xi + ' and ' + yj + ' are substituted (X): the walk goes diagonally' + to;
      rule += '<p>' + c('D[i\u22121][j\u22121] = ' + dg + ' = ' + less) + ': a substitution, go to ' + c('(i \u2212 1, j \u2212 1)') + '</p>';
    } else if (mv === 2) {
      move = 'no match and no substitution: x[' + i + '] = ' + xi + ' is deleted (' + data.cigar_ops[2] + ' in the CIGAR) and the walk goes up' + to;
      rule += '<p>' + c('D[i\u22121][j\u22121] = ' + dg + ' \u2260 ' + less) + ', ' + c('D[i\u22121][j] = ' + up + ' = ' + less) + ': x[i] deleted, go up</p>';
    } else {
      move = 'no match, no substitution, no deletion: y[' + j + '] = ' + yj + ' is inserted (' + data.cigar_ops[3] + ' in the CIGAR) and the walk goes left' + to;
      rule += '<p>' + c('D[i\u22121][j\u22121] = ' + dg) + ' and ' + c('D[i\u22121][j] = ' + up) + ' differ from ' + c(less) + ': y[j] inserted, go left</p>';
    }
    return { move, rule };
  }

  function walkTexts(st) {
    const k = st.shown;
    const [i, j] = walk[k - 1];
    const owner = cellProc(i, j);
    $('phase').textContent = 'Traceback: cell ' + k + ' of ' + walk.length + ' of the walk';
    const mv = walkMoves[k - 1];
    const decided = ruleAt(i, j, mv);
    const rule = decided.rule;
    let move = decided.move;
    const next = target(i, j, mv);
    if (next[0] < 0 || next[1] < 0) {
      move += ', which is outside the matrix: the walk ends';
      if (tail.length > 0) {
        move += '; the rest of the path runs along the border, ' + plural(tail.length, 'byte', 'bytes') + ' of ' +
          (tail[0] === 2 ? 'x' : 'y') + ' alone (' + tail.length + data.cigar_ops[tail[0]] + ')';
      }
    }
    const hops = data.hops.filter((h) => h.t >= st.from - 1 && h.t < k - 1);
    let what = 'The walk is at (' + i + ', ' + j + '), a cell of p' + owner + ': ' + move + '.';
    hops.forEach((h) => {
      what += ' Hop: p' + h.from + ' sends p' + h.to + ' one traceback message: ' + hopContent(h) + '.';
    });
    $('what').textContent = what;
    showHopLabel(hops);
    const sp = split(i + j);
    const v = value(i, j);
    $('formula-text').innerHTML = rule +
      '<p><code>' + V + '[' + i + '][' + j + '] = ' + v + '</code>: ' + (edit
        ? 'the edit distance of x[0..=' + i + '] and y[0..=' + j + '] is ' + v
        : 'the LCS of x[0..=' + i + '] and y[0..=' + j + '] has ' + v + ' bytes') + '</p>' +
      '<p>owner: <code>cell_proc(' + i + ', ' + j + ')</code> = p' + owner + ' (d = ' + (i + j) + ', pos = ' + pos(i, j) + ', c = ' + sp.c + ', f = ' + sp.f + ', r = ' + sp.r + ')</p>' +
      '<p>A hop happens when the next cell has another owner: one message with the next cell (16 bytes) and the path so far (its number of moves, 8 bytes, then the moves four to a byte).</p>';
  }

  function endTexts() {
    $('phase').textContent = 'End of the walk';
    const answer = edit
      ? 'the edit distance is ' + data.distance + ', and the alignment (the file\u2019s first sequence the query) is ' + data.cigar + '. '
      : 'the LCS is "' + (data.lcs || '') + '" (' + found(walk.length).length + ' bytes). ';
    $('what').textContent = 'The walk has left the matrix: ' + answer + (data.control || '');
    let f = '<p>' + plural(control.length, 'control message', 'control messages') + ': ' +
      control.map((e) => 'p' + e.from + '\u2192p' + e.to + ' (' + e.bytes + ' B)').join(', ') + '</p>';
    if (edit && data.view) f += '<pre class="alignment">' + data.view.map(esc).join('\n') + '</pre>';
    $('formula-text').innerHTML = f;
    showHopLabel([]);
  }

  const slider = $('slider');
  const label = $('step-label');
  slider.max = String(S - 1);
  function go(s) {
    s = Math.max(0, Math.min(S - 1, Math.round(Number(s) || 0)));
    const st = stepOf(s);
    if (st.phase === 'fill') {
      setDone(st.hi);
      setLit(st.lo, st.hi);
      setWalk(0);
      showHopLabel([]);
      fillTexts(st);
    } else {
      setDone(D);
      setLit(0, 0);
      setWalk(st.phase === 'walk' ? st.shown : walk.length);
      if (st.phase === 'walk') walkTexts(st);
      else if (st.phase === 'end') endTexts();
      else {
        $('phase').textContent = m === 0 ? 'An empty matrix: nothing to compute' : 'The whole schedule';
        $('what').textContent = '';
        $('formula-text').textContent = '';
      }
    }
    const inWalk = st.phase === 'walk' || st.phase === 'end';
    $('found').hidden = !solved || !inWalk;
    if (solved && inWalk) {
      const k = st.phase === 'walk' ? st.shown : walk.length;
      $('found-so-far').textContent = edit ? cigarSoFar(k) : showBytes(found(k));
    }
    $('final').hidden = st.phase !== 'end';
    const c = counts[s];
    const before = s > 0 ? counts[s - 1] : null;
    for (let k = 0; k < P; k++) {
      const cells = counterCells[k].children;
      cells[1].textContent = c.cells[k];
      cells[2].textContent = c.sent[k];
      cells[3].textContent = c.received[k];
      const changed = before && (before.sent[k] !== c.sent[k] || before.received[k] !== c.received[k]);
      counterCells[k].classList.toggle('changed', !!changed);
    }
    slider.value = String(s);
    label.textContent = 'step ' + (s + 1) + ' of ' + S + ' \u00B7 ' +
      (st.phase === 'fill' ? (st.hi - st.lo === 1 ? 'd = ' + st.lo : 'd = ' + st.lo + '\u2013' + (st.hi - 1))
        : st.phase === 'walk' ? 'walk ' + st.shown + '/' + walk.length : st.phase === 'end' ? 'end' : '');
    current = s;
  }

  // ---- Controls.
  let timer = null;
  const playButton = $('play');
  function stop() {
    if (timer !== null) clearInterval(timer);
    timer = null;
    playButton.textContent = '\u25B6 play';
  }
  function play() {
    if (current >= S - 1) go(0);
    stop();
    timer = setInterval(() => { if (current >= S - 1) stop(); else go(current + 1); }, Number($('speed').value));
    playButton.textContent = '\u275A\u275A pause';
  }
  const toggle_play = () => (timer === null ? play() : stop());
  const step = (by) => { stop(); go(current + by); };
  $('first').addEventListener('click', () => { stop(); go(0); });
  $('last').addEventListener('click', () => { stop(); go(S - 1); });
  $('back').addEventListener('click', () => step(-1));
  $('forward').addEventListener('click', () => step(1));
  playButton.addEventListener('click', toggle_play);
  $('speed').addEventListener('change', () => { if (timer !== null) play(); });
  slider.addEventListener('input', () => { stop(); go(slider.value); });
  document.querySelectorAll('#controls button').forEach((b) => b.addEventListener('click', () => b.blur()));
  document.addEventListener('keydown', (e) => {
    if (e.target.tagName === 'SELECT') return;
    const keys = { ArrowRight: () => step(1), ArrowLeft: () => step(-1), ' ': toggle_play, Home: () => { stop(); go(0); }, End: () => { stop(); go(S - 1); } };
    const act = keys[e.key];
    if (!act) return;
    e.preventDefault();
    act();
  });
  document.addEventListener('keyup', (e) => { if (e.key === ' ') e.preventDefault(); });
  window.addEventListener('hashchange', () => {
    const h = new URLSearchParams(location.hash.slice(1));
    if (h.has('step') || h.has('hop')) { stop(); go(stepFrom(h)); }
  });

  // ---- Hovering a cell: its numbers.
  const tooltip = $('tooltip');
  svg.addEventListener('mousemove', (e) => {
    const t = e.target;
    if (!t.classList || !t.classList.contains('cell')) { tooltip.hidden = true; return; }
    const i = num(t, 'i');
    const j = num(t, 'j');
    const d = i + j;
    const q = pos(i, j);
    const sp = split(d);
    const k = cellProc(i, j);
    const [s, end] = diagStartEnd(d, k);
    const how = q < sp.c * sp.r ? 'pos < c\u00B7r = ' + sp.c * sp.r + ', so \u230Apos / c\u230B = ' + k
      : 'pos \u2265 c\u00B7r = ' + sp.c * sp.r + ', so \u230A(pos \u2212 r) / f\u230B = ' + k;
    let html = '<p><b>cell (i, j) = (' + i + ', ' + j + ')</b>' +
      (solved ? ': x[' + i + '] = ' + esc(quoted(data.x[i])) + ', y[' + j + '] = ' + esc(quoted(data.y[j])) : '') + '</p>' +
      '<p>diagonal d = i + j = ' + d + ', position pos = min(i, n \u2212 1 \u2212 j) = ' + q + '</p>' +
      '<p>L = ' + sp.L + ', p = ' + sp.p + ', c = ' + sp.c + ', f = ' + sp.f + ', r = ' + sp.r + '</p>' +
      '<p>owner cell_proc(' + i + ', ' + j + ') = p' + k + ' (' + how + ')</p>' +
      '<p>diag_start_end(' + d + ', ' + k + ') = [' + s + ', ' + end + '): ' + rows(d, s, end) + '</p>';
    if (solved) {
      html += '<p>' + V + '[' + i + '][' + j + '] = ' + (d < doneHi ? data.values[i][j] : 'not computed yet at this step') + '</p>';
    }
    tooltip.innerHTML = html;
    tooltip.hidden = false;
    const x = Math.min(e.clientX + 16, window.innerWidth - tooltip.offsetWidth - 4);
    const y = Math.min(e.clientY + 16, window.innerHeight - tooltip.offsetHeight - 4);
    tooltip.style.left = Math.max(0, x) + 'px';
    tooltip.style.top = Math.max(0, y) + 'px';
  });
  svg.addEventListener('mouseleave', () => { tooltip.hidden = true; });

  // ---- For tests: what the page shows, read back from the page itself.
  function state() {
    const list = (sel, f) => Array.from(svg.querySelectorAll(sel)).map(f);
    return {
      step: current,
      steps: S,
      slider: Number(slider.value),
      label: label.textContent,
      playing: timer !== null,
      phase: $('phase').textContent,
      what: $('what').textContent,
      formulas: $('formula-text').textContent,
      outlined: list('.diagonal.on', (e) => num(e, 'd')),
      arrows: list('.message.on', (e) => ({ d: num(e, 'd'), from: num(e, 'from'), to: num(e, 'to'), i: num(e, 'i'), j: num(e, 'j'), bytes: num(e, 'bytes') })),
      done: svg.querySelectorAll('.cell.done').length,
      counters: counterCells.map((tr, k) => ({ rank: k, cells: Number(tr.children[1].textContent), sent: Number(tr.children[2].textContent), received: Number(tr.children[3].textContent) })),
      walkSteps: svg.querySelectorAll('.walk-step.on').length,
      matches: svg.querySelectorAll('.match.on').length,
      hops: list('.hop.on', (e) => ({ t: num(e, 't'), from: num(e, 'from'), to: num(e, 'to'), i: num(e, 'i'), j: num(e, 'j'), bytes: num(e, 'bytes'), prefix: e.dataset.prefix })),
      hopLabel: hopLabel.getAttribute('visibility') === 'visible' ? hopText.textContent : null,
      problem: data.problem,
      lcs: edit || $('found').hidden ? null : $('found-so-far').textContent,
      alignment: !edit || $('found').hidden ? null : $('found-so-far').textContent,
      panel: document.querySelector('aside').textContent,
      final: !$('final').hidden,
      tooltip: tooltip.hidden ? null : tooltip.textContent,
    };
  }
  window.lcsPage = {
    info: () => ({ steps: S, fill: F, walk: W, end: E, group, walkGroup, diagonals: D }),
    go: (s) => { stop(); go(s); return state(); },
    state,
    problems: () => problems.slice(),
    // Every step once, each laid out: how long the whole play takes without its pauses.
    playAll: () => {
      const t0 = performance.now();
      for (let s = 0; s < S; s++) {
        go(s);
        void svg.getBoundingClientRect().width;
      }
      return performance.now() - t0;
    },
  };

  // The address may name a step (`#step=12`, `#step=end`) or a hop of the walk (`#hop=1`).
  function stepFrom(h) {
    if (h.has('hop') && data.hops.length > 0) {
      const k = Math.min(data.hops.length, Math.max(1, Number(h.get('hop')) || 1));
      return F + Math.floor((data.hops[k - 1].t + 1) / walkGroup);
    }
    return h.get('step') === 'end' ? S - 1 : h.get('step');
  }
  problems.forEach((p) => console.error('lcs page: ' + p));
  go(stepFrom(fragment) || 0);
  if (fragment.has('play')) play();
})();
