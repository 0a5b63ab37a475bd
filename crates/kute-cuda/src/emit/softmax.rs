//! The register code both attention kernels share: the masks of a key
//! block, the online softmax in base 2 over `S`'s registers, `P` packed
//! from them, and the end (each row's sum over its lanes, `O / sum` stored
//! and the log-sum-exp), written register by register from the plan's
//! constants. The kernels name their registers (`acc_s[r][v]` or
//! `acc_s[i]`) through [`Rows`].

use super::tree;
use crate::plan::attention_sm80::RegisterIndices;
use std::fmt::Write;

/// The accumulators of one kernel: where each register of `S` and `O`
/// sits (the plan's), the rows of the slots, the lane masks of a row, and
/// the C names of register `i` of `S` and of `O`.
pub(crate) struct Rows<'a> {
    pub s: &'a RegisterIndices,
    pub o: &'a RegisterIndices,
    pub slot_rows: &'a [i64],
    pub row_masks: &'a [i64],
    pub s_reg: &'a dyn Fn(usize) -> String,
    pub o_reg: &'a dyn Fn(usize) -> String,
}

impl Rows<'_> {
    /// `S`'s registers of row slot `sl`.
    fn of_slot(&self, sl: usize) -> Vec<String> {
        self.s.slots.iter().enumerate().filter(|&(_, &x)| x == sl).map(|(i, _)| (self.s_reg)(i)).collect()
    }

    /// The masks of the key block at `n0`: keys past `lk`, and with the
    /// causal mask keys past the row's position aligned at the end (query
    /// `i` sees keys up to `i + Lk - Lq`); `-inf` in `S`.
    pub(crate) fn mask(&self, causal: bool) -> String {
        let mut mask = String::new();
        for (sl, row) in self.slot_rows.iter().enumerate() {
            if causal {
                let _ = writeln!(mask, "      const int lim{sl} = min(lk, m0 + s_row0 + {row} + off + 1) - n0;");
            } else {
                let _ = writeln!(mask, "      const int lim{sl} = lk - n0;");
            }
        }
        for (i, ((_, col), sl)) in self.s.offsets.iter().zip(&self.s.slots).enumerate() {
            let _ = writeln!(mask, "      if (s_col0 + {col} >= lim{sl}) {} = kute_neg_inf;", (self.s_reg)(i));
        }
        mask
    }

    /// The online softmax in base 2, in three parts: the rows' maxima over
    /// the thread's registers and the lanes sharing the rows and each row's
    /// factor `alpha{sl}` of its old sum; `O` rescaled by it; the
    /// exponentials (the scale folded into one FMA) and the thread's part of
    /// each row's sum. With `trees`, a row's registers are reduced as a
    /// balanced tree (a dependent chain as long as the tree is deep), else
    /// one after the other.
    pub(crate) fn softmax(&self, trees: bool) -> [String; 3] {
        let slots = self.slot_rows.len();
        let mut head = String::new();
        for sl in 0..slots {
            if trees {
                let max = tree(&|a, b| format!("fmaxf({a}, {b})"), &self.of_slot(sl));
                let _ = writeln!(head, "    float mx{sl} = fmaxf(row_max[{sl}], {max});");
            } else {
                let _ = writeln!(head, "    float mx{sl} = row_max[{sl}];");
            }
        }
        if !trees {
            for (i, sl) in self.s.slots.iter().enumerate() {
                let _ = writeln!(head, "    mx{sl} = fmaxf(mx{sl}, {});", (self.s_reg)(i));
            }
        }
        for m in self.row_masks {
            for sl in 0..slots {
                let _ = writeln!(head, "    mx{sl} = fmaxf(mx{sl}, __shfl_xor_sync(0xffffffffu, mx{sl}, {m}));");
            }
        }
        for sl in 0..slots {
            let _ = writeln!(
                head,
                "    const float ms{sl} = mx{sl} == kute_neg_inf ? 0.f : mx{sl} * sl2;\n    const float alpha{sl} = kute_ex2(row_max[{sl}] * sl2 - ms{sl});\n    row_max[{sl}] = mx{sl};\n    row_sum[{sl}] *= alpha{sl};"
            );
        }
        let mut rescale = String::new();
        for (i, sl) in self.o.slots.iter().enumerate() {
            let _ = writeln!(rescale, "    {} *= alpha{sl};", (self.o_reg)(i));
        }
        let mut tail = String::new();
        for (i, sl) in self.s.slots.iter().enumerate() {
            let r = (self.s_reg)(i);
            let _ = writeln!(tail, "    {r} = kute_ex2(fmaf({r}, sl2, -ms{sl}));");
            if !trees {
                let _ = writeln!(tail, "    row_sum[{sl}] += {r};");
            }
        }
        if trees {
            for sl in 0..slots {
                let sum = tree(&|a, b| format!("({a} + {b})"), &self.of_slot(sl));
                let _ = writeln!(tail, "    row_sum[{sl}] += {sum};");
            }
        }
        [head, rescale, tail]
    }

    /// `O` rescaled row slot by row slot, each slot's registers only where
    /// some lane's factor of it is not 1 (a warp's vote): a row's maximum
    /// mostly stays as it was from one key block to the next, and a factor
    /// of exactly 1 leaves `O` as it is, so skipping it changes no bit.
    pub(crate) fn rescale_where_moved(&self) -> String {
        let mut o = String::new();
        for sl in 0..self.slot_rows.len() {
            let _ = writeln!(o, "    if (__any_sync(0xffffffffu, alpha{sl} != 1.f)) {{");
            for (i, _) in self.o.slots.iter().enumerate().filter(|&(_, &s)| s == sl) {
                let _ = writeln!(o, "      {} *= alpha{sl};", (self.o_reg)(i));
            }
            o.push_str("    }\n");
        }
        o
    }

    /// `P`'s registers from `S`'s: `pf[j / 4][j % 4]` packs `S`'s registers
    /// `p_src[2 j]` and `p_src[2 j + 1]` with `pack`.
    pub(crate) fn to_p(&self, p_src: &[i64], pack: &str) -> String {
        let mut to_p = String::new();
        for (j, pair) in p_src.chunks(2).enumerate() {
            let (a, b) = ((self.s_reg)(pair[0] as usize), (self.s_reg)(pair[1] as usize));
            let _ = writeln!(to_p, "    pf[{}][{}] = {pack}({a}, {b});", j / 4, j % 4);
        }
        to_p
    }

    /// The end: each row's sum over its lanes, `O / sum` stored in 16-bit
    /// pairs (`pack`) through `go` from the thread's `o_row0` and `o_col0`,
    /// and the log-sum-exp (natural log) by the first lane of a row (`lane`
    /// the thread's index among those sharing rows).
    pub(crate) fn store(&self, pack: &str, lane: &str) -> String {
        let slots = self.slot_rows.len();
        let lanes = self.row_masks.iter().fold(0, |a, m| a | m);
        let mut store = String::new();
        for m in self.row_masks {
            for sl in 0..slots {
                let _ = writeln!(store, "  row_sum[{sl}] += __shfl_xor_sync(0xffffffffu, row_sum[{sl}], {m});");
            }
        }
        for (sl, row) in self.slot_rows.iter().enumerate() {
            let _ = writeln!(
                store,
                "  const int orow{sl} = m0 + o_row0 + {row};\n  const bool ok{sl} = orow{sl} < lq;\n  const float inv{sl} = row_sum[{sl}] == 0.f ? 0.f : 1.f / row_sum[{sl}];\n  unsigned short* go{sl} = go + (long long)orow{sl} * prm.o[1] + o_col0;"
            );
        }
        for (i, pair) in self.o.offsets.chunks(2).enumerate() {
            let j = 2 * i;
            let sl = self.o.slots[j];
            let _ = writeln!(
                store,
                "  if (ok{sl}) *(unsigned int*)(go{sl} + {}) = {pack}({} * inv{sl}, {} * inv{sl});",
                pair[0].1,
                (self.o_reg)(j),
                (self.o_reg)(j + 1)
            );
        }
        let _ = writeln!(store, "  if (LSE != nullptr && ({lane} & {lanes}) == 0) {{");
        for sl in 0..slots {
            let _ = writeln!(
                store,
                "    if (ok{sl}) glse[(long long)orow{sl} * prm.lse[1]] = row_sum[{sl}] == 0.f ? kute_neg_inf : (row_max[{sl}] * sl2 + __log2f(row_sum[{sl}])) * 0.6931471805599453f;"
            );
        }
        store.push_str("  }\n");
        store
    }
}
