//! `kute::atom::traits` against CuTe: every `MMA_Traits<Op>::X{}` and
//! `Copy_Traits<Op>::X{}` the oracle printed (tests/data/tv_traits.tsv, rows of
//! the shared tv vectors), and the consistency of every op's layouts.

use kute::atom::traits::{copy_op_names, copy_traits, mma_op_names, mma_traits};
use kute::Layout;

const VECTORS: &str = include_str!("data/tv_traits.tsv");

/// `Family<OP>::X{}` as (family, OP, X).
fn split_expr(expr: &str) -> (&str, &str, &str) {
    let expr = expr.strip_suffix("{}").unwrap_or_else(|| panic!("{expr}: no trailing {{}}"));
    let (head, member) = expr.rsplit_once("::").unwrap();
    let (family, op) = head.split_once('<').unwrap();
    (family, op.strip_suffix('>').unwrap(), member)
}

#[test]
fn atom_traits_match_cute() {
    let mut checked = 0;
    for line in VECTORS.lines().filter(|l| !l.trim().is_empty()) {
        let (expr, want) = line.split_once('\t').unwrap_or_else(|| panic!("bad row {line:?}"));
        let (family, op, member) = split_expr(expr);
        let got = match family {
            "MMA_Traits" => {
                let t = mma_traits(op).unwrap_or_else(|e| panic!("{expr}: {e}"));
                match member {
                    "ALayout" => t.a.to_string(),
                    "BLayout" => t.b.to_string(),
                    "CLayout" => t.c.to_string(),
                    "ThrID" => t.thr_id.to_string(),
                    "Shape_MNK" => t.shape_mnk.to_string(),
                    _ => panic!("{expr}: unknown member"),
                }
            }
            "Copy_Traits" => {
                let t = copy_traits(op).unwrap_or_else(|e| panic!("{expr}: {e}"));
                match member {
                    "SrcLayout" => t.src.to_string(),
                    "DstLayout" => t.dst.to_string(),
                    "RefLayout" => t.r#ref.to_string(),
                    "ThrID" => t.thr_id.to_string(),
                    _ => panic!("{expr}: unknown member"),
                }
            }
            _ => panic!("{expr}: unknown family"),
        };
        assert_eq!(got, want, "{expr}");
        checked += 1;
    }
    assert_eq!(checked, 125);
}

fn size(l: &Layout) -> i64 {
    l.size().unwrap().value()
}

fn size0(l: &Layout) -> i64 {
    size(&l.mode(0).unwrap())
}

/// `l` maps `[0, size(l))` one-to-one onto `[0, n)`.
fn is_bijection_onto(l: &Layout, n: i64) -> bool {
    if size(l) != n {
        return false;
    }
    let mut seen = vec![false; n as usize];
    for i in 0..n {
        match l.eval(i) {
            Ok(x) if (0..n).contains(&x) && !seen[x as usize] => seen[x as usize] = true,
            _ => return false,
        }
    }
    true
}

#[test]
fn atom_every_mma_op_builds_and_is_consistent() {
    let names = mma_op_names();
    assert!(names.len() > 1000, "{}", names.len());
    let mut bad = Vec::new();
    for name in &names {
        let t = mma_traits(name).unwrap_or_else(|e| panic!("{name}: {e}"));
        let mnk = &t.shape_mnk;
        let dim = |i| mnk.get(i).unwrap().as_int().unwrap().value();
        let (m, n, k) = (dim(0), dim(1), dim(2));
        let threads = size(&t.thr_id);
        let gmma = name.starts_with("SM90_64x");
        for (which, l, rows, cols) in [("A", &t.a, m, k), ("B", &t.b, n, k), ("C", &t.c, m, n)] {
            assert_eq!(size0(l), threads, "{name} {which}: size<0> = size(ThrID)");
            // GMMA operands read through a shared-memory descriptor: every thread
            // sees the whole tile (thread mode of stride 0), the value mode is the tile
            let smem = gmma && (which == "B" || (which == "A" && name.contains("_SS")));
            let thread_mode = l.mode(0).unwrap();
            let all_zero = threads > 1 && (0..threads).all(|i| thread_mode.eval(i) == Ok(0));
            assert_eq!(smem, all_zero, "{name} {which}: stride-0 threads");
            let image = if smem { l.mode(1).unwrap() } else { l.clone() };
            // every op is built and its thread modes checked; the point-by-point
            // bijection of the generated GMMA ops on a spread of N keeps the test
            // short in a debug build (the tables are one formula in N)
            let checked = !gmma || [8, 16, 24, 32, 64, 96, 128, 192, 256].contains(&n);
            if checked && !is_bijection_onto(&image, rows * cols) {
                bad.push(format!("{name} {which}: {l} onto {rows}x{cols}"));
            }
        }
    }
    // CuTe's own table: the BLayout of SM80_16x8x32_S32{S4,U4}{S4,U4}S32_TN[_SATURATE],
    // ((_4,_8),(_8)):((_32,_1),(_8)), reaches some positions of the 8x32 tile twice
    // (thread stride 32 where the 8x8x32 atom's, on the same 8 columns, is 64);
    // kute keeps CuTe's layout, and this is the one exception
    let expected: Vec<String> = ["S4S4", "S4U4", "U4S4", "U4U4"]
        .iter()
        .flat_map(|t| {
            ["", "_SATURATE"]
                .map(|sat| format!("SM80_16x8x32_S32{t}S32_TN{sat} B: ((_4,_8),(_8)):((_32,_1),(_8)) onto 8x32"))
        })
        .collect();
    assert_eq!(bad, expected, "not bijections");
}

#[test]
fn atom_every_copy_op_builds_and_is_consistent() {
    for name in copy_op_names() {
        let t = copy_traits(&name).unwrap_or_else(|e| panic!("{name}: {e}"));
        let threads = size(&t.thr_id);
        let bits = t.r#ref.cosize().unwrap().value();
        // the tensor-memory ops (those with a ValID) address tensor memory for the
        // whole warp (or CTA pair) at once: their RefLayout's thread mode has stride
        // 0 and its value mode alone is the bijection; UTCCP's 4x32dp and 2x64dp
        // sources are broadcast (a stride-0 value mode over the repeated data paths)
        let tmem = t.val_id.is_some();
        let image = if tmem { t.r#ref.mode(1).unwrap() } else { t.r#ref.clone() };
        // UTCCP's 4dp ops "refresh" 4 of every 32 data paths: their RefLayout is one-to-one,
        // not onto
        if name.contains("_UTCCP_4dp") {
            let mut v = image.values().unwrap();
            let n = v.len();
            v.sort_unstable();
            v.dedup();
            assert_eq!(v.len(), n, "{name}: RefLayout {} is not one-to-one", t.r#ref);
        } else {
            assert!(is_bijection_onto(&image, bits), "{name}: RefLayout {} is not a bijection", t.r#ref);
        }
        assert!(t.r#ref == t.src || t.r#ref == t.dst, "{name}: RefLayout is SrcLayout or DstLayout");
        let broadcast = name.contains("_UTCCP_") && (name.contains("x32dp") || name.contains("x64dp"));
        for (which, l) in [("src", &t.src), ("dst", &t.dst)] {
            assert_eq!(size0(l), threads, "{name} {which}: size<0> = size(ThrID)");
            if !(broadcast && which == "src") {
                assert_eq!(l.cosize().unwrap().value(), bits, "{name} {which}: the bits of RefLayout");
            }
        }
    }
}

#[test]
fn atom_tables_spot_checks() {
    // layouts with a rank-1 tuple mode print as CuTe prints Shape<_8>
    let t = mma_traits("SM80_8x8x32_S32S4U4S32_TN").unwrap();
    assert_eq!(t.a.to_string(), "((_4,_8),(_8)):((_64,_1),(_8))");
    assert_eq!(t.val_types, ["int32_t", "int4b_t", "uint4b_t", "int32_t"]);
    // GMMA: RS A by K, C by N, types
    let t = mma_traits("SM90_64x8x8_F32TF32TF32_RS_TN").unwrap();
    assert_eq!(t.a.to_string(), "((_4,_8,_4),(_2,_2)):((_64,_1,_16),(_8,_256))");
    let t = mma_traits("SM90_64x24x32_S32U8S8_RS_TN_SATURATE").unwrap();
    assert_eq!(t.a.to_string(), "((_4,_8,_4),(_4,_2,_2)):((_256,_1,_16),(_64,_8,_1024))");
    assert_eq!(t.b.to_string(), "(_128,(_24,_32)):(_0,(_1,_24))");
    assert_eq!(t.c.to_string(), "((_4,_8,_4),(_2,_2,_3)):((_128,_1,_16),(_64,_8,_512))");
    assert_eq!(t.val_types, ["int32_t", "uint8_t", "int8_t", "int32_t"]);
    let t = mma_traits("SM90_64x256x32_F16E5M2E4M3_SS_TN").unwrap();
    assert_eq!(t.val_types, ["half_t", "float_e5m2_t", "float_e4m3_t", "half_t"]);
    assert_eq!(t.shape_mnk.to_string(), "(_64,_256,_32)");
    // copies
    let t = copy_traits("SM90_U16x2_STSM_T").unwrap();
    assert_eq!(t.src.to_string(), "((_4,_8),(_16,_2)):((_256,_16),(_1,_128))");
    assert_eq!(t.dst.to_string(), "((_8,_4),_128):((_128,_0),_1)");
    assert_eq!(t.r#ref, t.src);
    let t = copy_traits("SM80_CP_ASYNC_CACHEALWAYS_ZFILL<uint32_t>").unwrap();
    assert_eq!(t.src.to_string(), "(_1,_32):(_0,_1)");
}

/// `atom_catalog` (what `kute functions` and `:help atoms` list) covers every
/// operation kute knows: each name of `mma_op_names` and `copy_op_names`
/// matches a line's pattern (`{N}` a number, `{A,B}` a choice, `[...]`
/// optional, template arguments not compared).
#[test]
fn atom_catalog_covers_every_op() {
    use kute::atom::traits::{atom_catalog, AtomKind};
    /// Whether `name` matches `pat` from their starts to their ends.
    fn matches(pat: &str, name: &str) -> bool {
        if let Some(rest) = pat.strip_prefix("{N}") {
            let digits = name.chars().take_while(char::is_ascii_digit).count();
            return digits > 0 && matches(rest, &name[digits..]);
        }
        if let Some(rest) = pat.strip_prefix('{') {
            let (choices, rest) = rest.split_once('}').unwrap();
            return choices.split(',').any(|c| name.strip_prefix(c).is_some_and(|n| matches(rest, n)));
        }
        if let Some(rest) = pat.strip_prefix('[') {
            let close = rest.find(']').unwrap();
            let (opt, rest) = (&rest[..close], &rest[close + 1..]);
            return matches(rest, name) || name.strip_prefix(opt).is_some_and(|n| matches(rest, n));
        }
        match (pat.chars().next(), name.chars().next()) {
            (None, None) => true,
            (Some(p), Some(n)) if p == n => matches(&pat[p.len_utf8()..], &name[n.len_utf8()..]),
            _ => false,
        }
    }
    let base = |s: &str| s.split('<').next().unwrap().to_string();
    // the pattern without its template arguments (`[<GMMA::Major,GMMA::Major>]`, `<S[,D]>`)
    let form = |s: &str| base(s.split("[<").next().unwrap());
    let catalog = atom_catalog();
    for (kind, names) in [(AtomKind::Mma, mma_op_names()), (AtomKind::Copy, copy_op_names())] {
        for name in names {
            let hit = catalog.iter().filter(|f| f.kind == kind).any(|f| matches(&form(&f.form), &base(&name)));
            assert!(hit, "{name} is in no line of the catalogue");
        }
    }
    assert!(matches("SM90_64x{N}x16_F16F16F16_{SS,RS}", "SM90_64x256x16_F16F16F16_RS"));
    assert!(!matches("SM90_64x{N}x16_F16F16F16_{SS,RS}", "SM90_64x256x16_F16F16F16_RS_TN"));
}

/// A misspelt operation or element type gets the nearest name, with the
/// template arguments as written.
#[test]
fn misspelt_atoms_get_the_nearest_name() {
    for (src, hint) in [
        ("Copy_Atom<UniversalCopyy<uint32_t>,half_t>{}", "did you mean 'UniversalCopy<uint32_t>'?"),
        ("Copy_Atom<SM75_U32x4_LDSM_M,half_t>{}", "did you mean 'SM75_U32x4_LDSM_N'?"),
        ("Copy_Atom<SM75_U32x4_LDSM_N,halff_t>{}", "did you mean 'half_t'?"),
        ("Copy_Atom<UniversalCopy<uint32t>,half_t>{}", "did you mean 'uint32_t'?"),
        ("MMA_Atom<SM80_16x8x16_F16F16F16F16_TM>{}", "did you mean 'SM80_16x8x16_F16F16F16F16_TN'?"),
        ("SM90_64x64x16_F32F16F16_SZ{}", "did you mean 'SM90_64x64x16_F32F16F16_SS'?"),
    ] {
        let e = kute::expr::eval(src).unwrap_err();
        assert_eq!(e.kind(), kute::ErrorKind::UnknownName, "{src}: {e}");
        assert!(e.to_string().contains(hint), "{src}: {e}");
    }
}

/// The UMMA shared-memory descriptor of CuTe's canonical layouts
/// (`cute/atom/mma_traits_sm100.hpp`, `make_umma_desc`): in 16-byte units, a
/// K-major SW128 tile of 16-bit elements has its 8-row core-matrix groups
/// 1024 bytes apart (SBO 64) and LBO 1; an MN-major SW128 tile its 64-element
/// column blocks 1024 bytes apart (LBO 64) and its 8-column groups one
/// M-extent of atoms apart (SBO 128 for M = 128); a layout not of the
/// canonical form is rejected with CuTe's message.
#[test]
fn umma_descriptors() {
    use kute::atom::smem::{make_umma_desc, SmemLayoutType};
    let desc = |e: &str, bits: i64, k: bool| {
        make_umma_desc(&kute::expr::eval(e).unwrap().to_any_layout("l").unwrap(), bits, k)
    };
    let d = desc("tile_to_shape(UMMA::Layout_K_SW128_Atom<half_t>{},(_128,_64))", 16, true).unwrap();
    assert_eq!((d.layout_type, d.leading_byte_offset, d.stride_byte_offset), (SmemLayoutType::Swizzle128B, 1, 64));
    let d = desc("tile_to_shape(UMMA::Layout_K_SW32_Atom<float>{},(_64,_8))", 32, true).unwrap();
    assert_eq!((d.layout_type, d.leading_byte_offset, d.stride_byte_offset), (SmemLayoutType::Swizzle32B, 1, 16));
    let d = desc("tile_to_shape(UMMA::Layout_MN_SW128_Atom<half_t>{},(_128,_64))", 16, false).unwrap();
    assert_eq!((d.layout_type, d.leading_byte_offset, d.stride_byte_offset), (SmemLayoutType::Swizzle128B, 64, 128));
    let d = desc("tile_to_shape(UMMA::Layout_MN_SW128_32B_Atom<float>{},(_128,_32))", 32, false).unwrap();
    assert_eq!(d.layout_type, SmemLayoutType::Swizzle128BBase32B);
    // no swizzle: 8x16-byte core matrices, SBO between them along MN, LBO along K
    let d = desc("tile_to_shape(UMMA::Layout_K_INTER_Atom<half_t>{},(_128,_64))", 16, true).unwrap();
    assert_eq!((d.layout_type, d.leading_byte_offset, d.stride_byte_offset), (SmemLayoutType::SwizzleNone, 128, 8));
    let msg = |r: kute::Result<_>| r.unwrap_err().to_string();
    assert!(msg(desc("tile_to_shape(UMMA::Layout_MN_SW128_Atom<half_t>{},(_128,_64))", 16, true))
        .contains("Not a canonical UMMA_K Layout"));
    assert!(msg(desc("tile_to_shape(UMMA::Layout_K_SW128_Atom<half_t>{},(_128,_64))", 16, false))
        .contains("Not a canonical UMMA_MN Layout"));
    assert!(msg(desc("tile_to_shape(UMMA::Layout_MN_SW128_32B_Atom<float>{},(_128,_32))", 32, true))
        .contains("SWIZZLE_128B_BASE32B is invalid for Major-K"));
    assert!(msg(desc("UMMA::Layout_K_SW128_Atom<half_t>{}", 32, true)).contains("16-bit elements"));
    assert!(msg(desc("Sw<3,3,3> o _0 o (_8,_64):(_64,_1)", 16, true)).contains("only 16B and 32B atoms"));
    // GMMA: the same canonical forms, one wgmma's K at a time, CuTe's print
    let gmma = |e: &str, bits: i64, k: bool| {
        kute::atom::smem::make_gmma_desc(&kute::expr::eval(e).unwrap().to_any_layout("l").unwrap(), bits, k)
    };
    let k_block = "composition(tile_to_shape(GMMA::Layout_K_SW128_Atom<half_t>{},(_64,_64)),(_64,_16))";
    let d = gmma(k_block, 16, true).unwrap();
    assert_eq!((d.leading_byte_offset, d.stride_byte_offset), (1, 64));
    assert_eq!(
        d.to_string(),
        "GmmaDescriptor: 0x4000004000010000\n  start_addr :  0x0000\n  leading_off:  0x0001 (1)\n  \
         stride_off :  0x0040 (64)\n  base_offset:  0x0\n  layout_type:  0x1 (B128)"
    );
    assert!(msg(gmma("tile_to_shape(GMMA::Layout_K_SW128_Atom<half_t>{},(_64,_64))", 16, true))
        .contains("Expected K-size 2 for dense or 4 for sparse"));
    assert!(msg(gmma("tile_to_shape(UMMA::Layout_MN_SW128_32B_Atom<float>{},(_128,_32))", 32, false))
        .contains("unsupported layout swizzle"));
}
