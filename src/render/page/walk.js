// Part 2: the walk's rule, replayed on the recorded values: each cell's move (0 match,
// 1 substitution, 2 up, 3 left), where it leads, and the alignment the moves spell; checked
// against the recorded walk and the report's CIGAR. A wave run's values are costs: the LCS's
// rule `M[i-1][j] >= M[i][j-1]` is then `E[i-1][j] <= E[i][j-1]` on its indel distances.
const costBorders = edit || wave;
const value = (a, b) => (a >= 0 && b >= 0 ? values[a][b] : costBorders ? (a < 0 && b < 0 ? 0 : a + b + 2) : 0);
function moveAt(i, j) {
  if (data.x[i] === data.y[j]) return 0;
  if (!edit && wave) return value(i - 1, j) <= value(i, j - 1) ? 2 : 3;
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
function found(k) {
  const bytes = [];
  for (let t = 0; t < k; t++) {
    const [i, j] = walk[t];
    if (data.x[i] === data.y[j]) bytes.push(data.x[i]);
  }
  return bytes.reverse();
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
        for (let k = 0; k < P; k++) cells[k] += unitCells(d, k);
        byUnit[d].forEach((e) => { sent[e.from]++; received[e.to]++; });
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
