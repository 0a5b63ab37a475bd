//! Attention's forward pass from layouts: `O = softmax(Q·Kᵀ·scale [+ causal
//! mask])·V` and the log-sum-exp of each row, FlashAttention-2's structure
//! on SM80 `mma.sync` (the plan; its kernel text comes with the emit layer).
//!
//! A block owns `block_m` query rows; its `warps` warps each own 16 rows
//! of every `16·warps`-row slab. For each `block_n` keys it multiplies
//! `S = Q·Kᵀ` (`mma.sync` m16n8k16, f32 accumulators), keeps each row's
//! running maximum and sum (the threads that share a row, read off the
//! accumulator layout, combine theirs with lane shuffles), turns its `S`
//! registers into the `P` operand of `O += P·V` in place (the re-layout
//! from the accumulator to the A operand is derived with kute's algebra:
//! `left_inverse(S) ∘ P` maps each `P` register to the `S` register holding
//! its value, in the same thread), and rescales `O`.

use crate::{Elem, Error, Result};

/// The choices of the SM80 attention kernel.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct AttentionConfig {
    /// The head dimension `d` (64, 128 or 256).
    pub head_dim: i64,
    /// Query rows per block: a multiple of `16 · warps`.
    pub block_m: i64,
    /// Keys per step: a multiple of 16.
    pub block_n: i64,
    /// Warps per block.
    pub warps: i64,
    /// Whether keys after a query's position are masked (aligned at the
    /// end: query `i` of `Lq` sees keys up to `i + Lk - Lq`).
    pub causal: bool,
}

impl Default for AttentionConfig {
    /// FlashAttention-2's forward tile for `d = 128`: 128 query rows, 64
    /// keys per step, four warps, not causal.
    fn default() -> AttentionConfig {
        AttentionConfig { head_dim: 128, block_m: 128, block_n: 64, warps: 4, causal: false }
    }
}

impl AttentionConfig {
    /// The configuration's rules: `d` of 64, 128 or 256; `block_m` a
    /// multiple of `16 · warps`; `block_n` a multiple of 16 and of `256 ·
    /// warps / d` (V's copy); 1 to 8 warps; 16-bit inputs.
    ///
    /// Pre: none. Post: `Ok` where the rules hold, else an `Unsupported`
    /// error naming the one broken.
    ///
    /// ```
    /// use kute_cuda::{attention::AttentionConfig, Elem};
    /// assert!(AttentionConfig::default().check(Elem::F16).is_ok());
    /// let odd = AttentionConfig { block_m: 96, ..AttentionConfig::default() };
    /// assert!(odd.check(Elem::F16).unwrap_err().to_string().contains("block_m"));
    /// assert!(AttentionConfig::default().check(Elem::F32).is_err());
    /// ```
    pub fn check(&self, elem: Elem) -> Result<()> {
        const OP: &str = "attention";
        let AttentionConfig { head_dim, block_m, block_n, warps, .. } = *self;
        let bad = |why: String| Err(Error::unsupported(OP, why));
        if !matches!(elem, Elem::F16 | Elem::Bf16) {
            return bad(format!("{elem} inputs (f16 or bf16)"));
        }
        if ![64, 128, 256].contains(&head_dim) {
            return bad(format!("head_dim {head_dim} (64, 128 or 256)"));
        }
        if !(1..=8).contains(&warps) {
            return bad(format!("{warps} warps (1 to 8)"));
        }
        if block_m < 16 * warps || block_m % (16 * warps) != 0 {
            return bad(format!("block_m {block_m}: a multiple of 16 · warps = {}", 16 * warps));
        }
        if block_n < 16 || block_n % 16 != 0 {
            return bad(format!("block_n {block_n}: a multiple of 16"));
        }
        // V's tile (d, block_n) is copied in 16-byte vectors down d: the
        // threads then cover 32 · warps · 8 / d keys per pass
        let per_pass = (32 * warps * 8 / head_dim).max(1);
        if block_n % per_pass != 0 {
            return bad(format!("block_n {block_n}: a multiple of {per_pass} (V's copy by {} threads)", 32 * warps));
        }
        Ok(())
    }
}

/// The plan of the SM80 kernel for `config` and `elem`, as text: the MMA
/// atom, each operand's fragments (thread `t`'s value `v` of repeat `r` at
/// `frag(t + threads · v) + rep(r)`, column-major in its tile), the
/// re-layout of `S`'s registers into `P`'s, and the lanes sharing a row.
///
/// Pre: the rules of [`AttentionConfig::check`]. Post: the text, or the
/// error naming the broken rule or the plan's claim that fails.
///
/// ```
/// use kute_cuda::{attention::{describe, AttentionConfig}, Elem};
/// let text = describe(AttentionConfig::default(), Elem::F16).unwrap();
/// assert!(text.contains("SM80_16x8x16_F32F16F16F32_TN"));
/// assert!(text.contains("row lanes: XOR 1, 2"));
/// ```
pub fn describe(config: AttentionConfig, elem: Elem) -> Result<String> {
    use std::fmt::Write as _;
    let p = crate::plan::attention_sm80::plan(config, elem)?;
    let AttentionConfig { head_dim: d, block_m: bm, block_n: bn, warps, causal } = p.config;
    let mut o = String::new();
    let _ = writeln!(
        o,
        "attention forward, {} inputs, d = {d}, {bm} query rows x {bn} keys per step, {warps} warps ({} threads){}",
        p.elem,
        p.threads,
        if causal { ", causal" } else { "" }
    );
    let _ = writeln!(o, "MMA atom: {}, warps along M", p.atom);
    for (what, f) in [
        ("Q (A of S = Q·Kᵀ)", &p.q),
        ("K (B of S)", &p.k),
        ("S (C)", &p.s),
        ("P (A of O = P·V)", &p.p),
        ("V (B of O, (d, keys))", &p.v),
        ("O (C)", &p.o),
    ] {
        let _ = writeln!(
            o,
            "{what} over {:?}: frag {}, rep {} ({} values x {} repeats per thread)",
            f.tile, f.frag, f.rep, f.values, f.repeats
        );
    }
    let _ = writeln!(o, "P from S (left_inverse(S) ∘ P, registers of the same thread): {}", p.p_from_s);
    let worst = |c: &[kute::analysis::BankReport]| c.iter().map(|r| r.degree()).fold(0.0, f64::max);
    for (what, t) in ["Q", "K", "V"].iter().zip(&p.smem) {
        let _ = writeln!(
            o,
            "shared {what}: {} (cp.async {} by TV {}, worst {:.0}-way; ldmatrix rows {}, rep {}, worst {:.0}-way)",
            t.layout,
            what,
            t.copy_tv,
            worst(&t.cost[0]),
            t.ldsm,
            t.rep,
            worst(&t.cost[1])
        );
        for line in &t.reasoning {
            let _ = writeln!(o, "  {line}");
        }
    }
    let masks: Vec<String> = p.row_masks.iter().map(|m| m.to_string()).collect();
    let _ = writeln!(o, "row lanes: XOR {}", masks.join(", "));
    Ok(o)
}
