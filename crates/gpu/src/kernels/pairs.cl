/* Many pairs: a work-item per pair, a work-group per pattern (the lane side's sequence of the
 * plan) against up to GROUP_SIZE targets, the pattern's match table in local memory (SIGMA
 * rows: the run's byte values, coded 0 .. SIGMA - 1 on the host). The edit distance (PROBLEM
 * 1: Levenshtein, the global boundary D[0][j] = j) or the LCS length (PROBLEM 2).
 *
 * groups: four words a group, (pattern, first slot in `targets`, targets, first output slot),
 * the pattern a number in the batch's `patterns` (its sequence) and `table_at` (its table);
 * out: a value per pair. A pattern of more than WORDS words takes one launch per stripe
 * (`stripe`), its items' columns' carries waiting in `carries` from `carry_at[slot]`; the
 * LCS's value gathers each stripe's zeros. With a bound (`bound` < 2^32 - 1, the edit
 * distance's most edits) a pattern of one stripe stops once the distance cannot come back
 * within it, and its value is then bound + 1. */

#define EDIT 1
#define LCS 2
#define NO_BOUND 0xffffffffu

KERNEL pairs(GLOBAL const u8 *codes, GLOBAL const u64 *seq_at, GLOBAL const u32 *seq_len,
             GLOBAL const u32 *patterns, GLOBAL const u64 *tables, GLOBAL const u64 *table_at,
             GLOBAL const u32 *groups,
             GLOBAL const u32 *targets, GLOBAL u32 *out, GLOBAL i8 *carries,
             GLOBAL const u64 *carry_at, u32 stripe, u32 bound)
{
    LOCAL u64 table[SIGMA * WORDS];
    GLOBAL const u32 *group = groups + 4 * (u64)GROUP_ID;
    const u32 count = group[2];
    const u32 m = seq_len[patterns[group[0]]];
    const u32 pattern_words = (m + 63) / 64;
    const u32 w0 = stripe * WORDS;
    load_table(table, tables + table_at[group[0]], pattern_words, w0);
    BARRIER();
    const u32 l = LOCAL_ID;
    if (l >= count)
        return;
    const u32 t = targets[group[1] + l];
    const u32 n = seq_len[t];
    GLOBAL const u8 *text = codes + seq_at[t];
    const u32 slot = group[3] + l;
    if (m == 0) {
        if (stripe == 0)
            out[slot] = PROBLEM == EDIT ? n : 0;
        return;
    }
    if (w0 >= pattern_words)
        return;
    const u32 words = MIN((u32)WORDS, pattern_words - w0);
    const int first = stripe == 0, last = w0 + WORDS >= pattern_words;
    GLOBAL i8 *carry = carries + (first && last ? 0 : carry_at[slot]);
#if PROBLEM == EDIT
    u64 pv[WORDS], mv[WORDS];
    fresh_column(pv, mv);
    u32 score = m;
    /* The last row's word in the stripe (past it when the row lies in a later stripe). */
    const u32 lw = last ? (m - 1) / 64 - w0 : WORDS;
    const u32 lb = (m - 1) % 64;
    const int stops = first && last && bound != NO_BOUND;
    for (u32 j = 0; j < n; j++) {
        const int h = first ? 1 : carry[j];
        const int leaving =
            edit_column(table + (u32)text[j] * WORDS, pv, mv, words, h, lw, lb, &score);
        if (!last)
            carry[j] = (i8)leaving;
        /* D[m][n] >= D[m][j + 1] - (n - j - 1). */
        if (stops && score > bound + (n - j - 1)) {
            score = bound + 1;
            break;
        }
    }
    if (last)
        out[slot] = score;
#else
    (void)bound;
    u64 v[WORDS];
    for (u32 w = 0; w < WORDS; w++)
        v[w] = ALL_ONES;
    for (u32 j = 0; j < n; j++) {
        const u32 c = first ? 0 : (u32)carry[j];
        const u32 leaving = lcs_column(table + (u32)text[j] * WORDS, v, words, c);
        if (!last)
            carry[j] = (i8)leaving;
    }
    /* The LCS is the number of zeros among the pattern's rows. */
    u32 zeros = 0;
    for (u32 w = 0; w < WORDS; w++) {
        if (w < words) {
            const u32 rows = MIN(64u, m - 64 * (w0 + w));
            const u64 real = rows == 64 ? ALL_ONES : (((u64)1 << rows) - 1);
            zeros += POPCOUNT(~v[w] & real);
        }
    }
    out[slot] = (first ? 0 : out[slot]) + zeros;
#endif
}
