// Part 5: the wave engine's texts. A wave page plays score steps: step t extends each of its
// diagonals k = j - i by one edit from step t - 1 and slides along the matches that follow, to
// the furthest row F[t][k]; each rank owns a run of the step's diagonals, and after the step
// every rank sends each neighbour one halo message. A cell's number is the step that first
// reached it, its cost. Here: what a step does, why a cell belongs to its rank, the cell
// inspector's recurrence with the numbers, the walk's rule on costs, the tooltip and the
// prediction mode's questions; all read from the run's recorded steps and messages.

const NONE_TEXT = '\u2014';
const minus = (k) => String(k).replace('-', '\u2212');
// Diagonal k of step t: its row before the slide and after it, or null.
function pointOf(t, k) {
  const st = wave.steps[t];
  if (!st) return null;
  const q = (k - st.first) / wave.stride;
  if (!(q >= 0 && q < st.end.length && Number.isInteger(q))) return null;
  return { start: st.start[q], end: st.end[q] };
}
const furthest = (t, k) => { const p = t >= 0 ? pointOf(t, k) : null; return p ? p.end : null; };
const rangeText = (r) => (r[0] === r[1] ? 'k = ' + minus(r[0]) : 'k = ' + minus(r[0]) + '\u2026' + minus(r[1]) + ' (' + ((r[1] - r[0]) / wave.stride + 1) + ')');
const costText = (v) => (v === Infinity ? '\u221E (no step reached it)' : String(v));
// The halo messages of a step, in words.
function halosText(msgs) {
  return msgs.map((e) => 'p' + e.from + '\u2192p' + e.to + ' ' + (e.values === 0 ? 'empty' : plural(e.values, 'value', 'values')) +
    (e.diagonals ? ' (k = ' + minus(e.diagonals[0]) + '\u2026' + minus(e.diagonals[1]) + ')' : '')).join(', ');
}

// The diagonal of step t whose slide is the longest (the first, on a tie), for examples.
function slidingDiagonal(t) {
  const st = wave.steps[t];
  let best = 0;
  for (let q = 1; q < st.end.length; q++) if (st.end[q] - st.start[q] > st.end[best] - st.start[best]) best = q;
  return st.first + best * wave.stride;
}

// F[t][k] from step t - 1, with the numbers.
function recurrence(t, k) {
  const p = pointOf(t, k);
  const f = (a) => { const v = furthest(t - 1, a); return v === null ? NONE_TEXT : String(v); };
  const arg = (a, plus) => 'F[' + (t - 1) + '][' + minus(a) + ']' + (plus ? ' + 1' : '');
  const inputs = edit ? [[k, true], [k + 1, true], [k - 1, false]] : [[k + 1, true], [k - 1, false]];
  const named = inputs.map(([a, plus]) => arg(a, plus)).join(', ');
  const numbers = inputs.map(([a, plus]) => { const v = furthest(t - 1, a); return v === null ? NONE_TEXT : String(v + (plus ? 1 : 0)); }).join(', ');
  if (t === 0) return { text: 'F[0][0] = slide(0) = ' + p.end + ': the start, and the matches that follow it', inputs: [], start: p.start, end: p.end };
  const limit = Math.min(m, n - k);
  const text = 'F[' + t + '][' + minus(k) + '] = slide(min(max(' + named + '), ' + limit + ')) = slide(min(max(' + numbers + '), ' + limit + ')) = slide(' +
    p.start + ') = ' + p.end;
  return { text, inputs: inputs.map(([a]) => [a, f(a)]), start: p.start, end: p.end };
}

function waveTexts(st, msgs) {
  const t = st.lo;
  const s = wave.steps[t];
  const sent = msgs.length ? ' Then ' + plural(msgs.length, 'halo message goes', 'halo messages go') + ': ' + halosText(msgs) + '.' : ' No message: a single rank.';
  if (!s) {
    $('what').textContent = 'The fill ended at step ' + wave.cost + ', when the furthest point of diagonal n \u2212 m = ' + minus(n - m) +
      ' reached the last cell. The rank that found it said so in that step\u2019s halos; each rank passes it on in its next halo and stops after that exchange.' + sent;
    $('formula-text').innerHTML = '<p>A rank r stops after step <code>s + |r \u2212 o|</code>, o the rank that found the end (here s = ' + wave.cost + ').</p>';
    return;
  }
  const count = s.end.length;
  const lo = s.first;
  const hi = lo + (count - 1) * wave.stride;
  const owners = [];
  const idle = [];
  s.ranges.forEach((r, k) => (r ? owners.push('p' + k + ' ' + rangeText(r)) : idle.push('p' + k)));
  const active = owners.length;
  let what = 'Score step ' + t + ': ' + plural(count, 'diagonal', 'diagonals') + ', k = ' + minus(lo) + '\u2026' + minus(hi) +
    '. Each is extended by one edit from step ' + (t - 1 < 0 ? '\u22121 (the start)' : t - 1) + ', then slides along the matches that follow, to its furthest row F[' + t + '][k]. ' +
    owners.join(', ') + '.';
  if (idle.length) what += ' ' + idle.join(', ') + (idle.length === 1 ? ' owns' : ' own') + ' none: a step is shared only when it gives each rank ' + wave.min_share + ' diagonals.';
  $('what').textContent = what + sent;
  const k = slidingDiagonal(t);
  const r = recurrence(t, k);
  const d = n - m;
  let f = '<p>reach: <code>|k| \u2264 t</code> and <code>t + |k \u2212 (n \u2212 m)| \u2264 bound</code>: <code>|k| \u2264 ' + t + ', ' + t + ' + |k \u2212 ' + minus(d) + '| \u2264 ' + wave.bound +
    '</code> gives <code>k = ' + minus(lo) + '\u2026' + minus(hi) + '</code>' + (wave.stride === 2 ? ', every other (the LCS: only the step\u2019s parity)' : '') + '</p>' +
    '<p>ranks: <code>p(t) = min(P, max(1, \u230Acount / ' + wave.min_share + '\u230B)) = min(' + P + ', max(1, \u230A' + count + ' / ' + wave.min_share + '\u230B)) = ' + active +
    '</code>, each a contiguous run, the first ranks one more</p>' +
    '<p>for example, the longest slide of this step, <code>k = ' + minus(k) + '</code>:</p><p class="seg"><code>' + esc(r.text) + '</code></p>' +
    '<p>the end: the first step with <code>F[s][n \u2212 m] = m</code>, here <code>F[' + wave.cost + '][' + minus(d) + '] = ' + m + '</code></p>';
  $('formula-text').innerHTML = f;
}

// Why (i, j) belongs to its rank.
function waveOwnerWhy(i, j) {
  const c = values[i][j];
  if (c === Infinity) return 'no rank: no step reached it';
  const k = owner(i, j);
  return 'p' + k + ', which owned diagonal k = ' + minus(j - i) + ' at step ' + c + ' (its run: ' + rangeText(wave.steps[c].ranges[k]) + ')';
}

// The cell of a step the panel shows: the end of its longest slide, else its first cell.
function waveCellOfStep(u) {
  if (!wave.steps[u]) return [null, null];
  const k = slidingDiagonal(u);
  const end = pointOf(u, k).end;
  if (end >= 1 && end + k >= 1) return [end - 1, end + k - 1];
  const cells = unitCellList(u);
  return cells[0] || [null, null];
}

// The cell's cost, the step and rank that reached it, and the recurrence with its numbers;
// frames the cell and the cells of the furthest points it was computed from.
function waveInspect(i, j) {
  frame(selectedMark, i, j, 10);
  selectedMark.setAttribute('visibility', 'visible');
  const k = j - i;
  const c = values[i][j];
  const head = '<p><b>cell (' + i + ', ' + j + ')</b>, diagonal <code>k = j \u2212 i = ' + minus(k) + '</code>: x[' + i + '] = ' + esc(quoted(data.x[i])) +
    (data.x[i] === data.y[j] ? ' = ' : ' \u2260 ') + 'y[' + j + ']' + (data.x[i] === data.y[j] ? '' : ' = ' + esc(quoted(data.y[j]))) + '</p>';
  if (c === Infinity) {
    $('cell-text').innerHTML = head + '<p>No step reached it: its cost is more than the answer\u2019s ' + wave.cost +
      ', or a path through it costs more than the bound ' + wave.bound + '. The wave never computes it.</p>';
    return;
  }
  const r = recurrence(c, k);
  const p = owner(i, j);
  const how = i + 1 <= r.start ? 'the step\u2019s edit reached it (row ' + r.start + ')' : 'the slide from row ' + r.start + ' along matches took it (to row ' + r.end + ')';
  let html = head + '<p>' + V + '[' + i + '][' + j + '] = ' + c + ': reached at step ' + c + ' by ' + rankName(p) + ': ' + how +
    (c < doneHi ? '' : ' <span class="note">(not reached yet at this step)</span>') + '</p>' +
    '<p><code>' + esc(r.text) + '</code></p><ul class="inputs">';
  r.inputs.forEach(([a, v], q) => {
    const from = rankOf(c - 1, a);
    const source = v === NONE_TEXT ? 'not reached at step ' + (c - 1) : from === p ? 'its own' : '<b>by halo message</b> from ' + rankName(from);
    html += '<li><code>F[' + (c - 1) + '][' + minus(a) + '] = ' + v + '</code>: ' + source + '</li>';
    const row = furthest(c - 1, a);
    if (row !== null && row >= 1 && row + a >= 1 && q < inputMarks.length) {
      frame(inputMarks[q], row - 1, row + a - 1, 8);
      inputMarks[q].setAttribute('visibility', 'visible');
    }
  });
  $('cell-text').innerHTML = html + '</ul>';
}

// The LCS's walk at a mismatch, on the indel distances.
function waveLcsRule(i, j, mv, differ, to) {
  const here = value(i, j);
  const up = value(i - 1, j);
  const left = value(i, j - 1);
  const dir = mv === 2 ? 'up' : 'left';
  const c = (t) => '<code>' + t + '</code>';
  const less = 'E[i][j] \u2212 1 = ' + (here - 1);
  return { move: 'no match, so the walk goes ' + dir + to,
    rule: '<p>' + differ + ': ' + (mv === 2 ? c('E[i\u22121][j] = ' + costText(up) + ' = ' + less) + ', so up'
      : c('E[i\u22121][j] = ' + costText(up)) + ' \u2260 ' + c(less) + ', so left (' + c('E[i][j\u22121] = ' + costText(left)) + ')') +
      ': the other engines\u2019 <code>M[i\u22121][j] \u2265 M[i][j\u22121]</code></p>' };
}

function waveTooltip(i, j) {
  const c = values[i][j];
  let html = '<p><b>cell (i, j) = (' + i + ', ' + j + ')</b>: x[' + i + '] = ' + esc(quoted(data.x[i])) + ', y[' + j + '] = ' + esc(quoted(data.y[j])) + '</p>' +
    '<p>diagonal k = j \u2212 i = ' + minus(j - i) + '</p>';
  if (c === Infinity) return html + '<p>no step reached it: the wave never computes it</p>';
  html += '<p>reached at step ' + c + ' by p' + owner(i, j) + '</p>';
  return html + '<p>' + V + '[' + i + '][' + j + '] = ' + (c < doneHi ? c : 'not reached yet at this step') + '</p>';
}

// The prediction mode's question about step t: which rank owns its middle diagonal.
function waveQuestion(next, t, unit, messages) {
  const s = wave.steps[t];
  if (!s) {
    return { step: next, t, unit, owner: null, messages,
      text: '<p>Step ' + t + ' computes no diagonal: the fill ended at step ' + wave.cost + ', and the ranks pass the end on.</p><p>' };
  }
  const k = s.first + Math.floor(s.end.length / 2) * wave.stride;
  return { step: next, t, unit, diagonal: k, owner: rankOf(t, k), messages,
    text: '<p>The next step computes ' + unit + ' over ' + plural(s.end.length, 'diagonal', 'diagonals') + ', k = ' + minus(s.first) + '\u2026' +
      minus(s.first + (s.end.length - 1) * wave.stride) + '. Which rank owns diagonal k = ' + minus(k) + '?</p><p class="choices">' };
}

function waveOwnerAnswer(q) {
  const s = wave.steps[q.t];
  const active = s.ranges.filter((r) => r).length;
  return 'diagonal k = ' + minus(q.diagonal) + ' belongs to p' + q.owner + ': the step\u2019s ' + plural(s.end.length, 'diagonal is', 'diagonals are') +
    ' split among ' + plural(active, 'rank', 'ranks') + ' in contiguous runs, and p' + q.owner + '\u2019s run is ' + rangeText(s.ranges[q.owner]);
}
