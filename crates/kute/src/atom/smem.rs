//! The shared-memory layout atoms of the SM90 GMMA and SM100 UMMA ops
//! (`cute/atom/mma_traits_sm90_gmma.hpp`, `mma_traits_sm90_gmma_sparse.hpp`,
//! `mma_traits_sm100.hpp`): `GMMA::Layout_K_SW128_Atom<T>`,
//! `UMMA::Layout_MN_SW128_32B_Atom<T>`, `UMMA::Layout_K_SW64_SpAtom<T,2>`, ...
//!
//! Each is a swizzle on byte addresses composed, through CuTe's unset
//! shared-memory pointer flag, with a tile of `T` elements: the `_Bits` atom
//! (one-bit elements, a 1024-bit row for `SW128`) upcast by the width of `T`.
//!
//! ```
//! use kute::atom::smem::smem_atom;
//! assert_eq!(smem_atom("UMMA::Layout_K_SW128_Atom", &["half_t"]).unwrap().to_string(),
//!            "Sw<3,4,3> o smem_ptr[16b](unset) o (_8,_64):(_64,_1)");
//! assert_eq!(smem_atom("GMMA::Layout_MN_SW32_Atom", &["float"]).unwrap().to_string(),
//!            "Sw<1,4,3> o smem_ptr[32b](unset) o (_8,_8):(_1,_8)");
//! ```

use crate::algebra;
use crate::composed::{AnyLayout, ComposedLayout, PtrFlag};
use crate::error::{Error, ErrorKind, Result};
use crate::layout::Layout;
use crate::swizzle::Swizzle;

/// The swizzles of the atoms, by name: (name part, B, M, S, the row in bits).
const SWIZZLES: [(&str, i64, i64, i64, i64); 5] = [
    ("INTER", 0, 4, 3, 128),
    ("SW32", 1, 4, 3, 256),
    ("SW64", 2, 4, 3, 512),
    ("SW128", 3, 4, 3, 1024),
    ("SW128_32B", 2, 5, 2, 1024),
];

/// Whether `name` (with its `GMMA::` / `UMMA::` namespace) has the form of a
/// shared-memory atom's name.
///
/// Pre: none. Post: the answer; [`smem_atom`] builds the ones that exist.
///
/// ```
/// use kute::atom::smem::is_smem_atom;
/// assert!(is_smem_atom("UMMA::Layout_K_SW128_Atom") && is_smem_atom("GMMA::Layout_MN_INTER_Atom_Bits"));
/// assert!(!is_smem_atom("Layout_K_SW128_Atom"));
/// ```
pub fn is_smem_atom(name: &str) -> bool {
    let name = name.strip_prefix("cute::").unwrap_or(name);
    (name.starts_with("GMMA::Layout_") || name.starts_with("UMMA::Layout_"))
        && (name.ends_with("_Atom") || name.ends_with("_SpAtom") || name.ends_with("_Atom_Bits"))
}

/// A parsed atom name.
struct AtomName {
    k_major: bool,
    b: i64,
    m: i64,
    s: i64,
    row_bits: i64,
    kind: AtomKind,
}

#[derive(PartialEq, Eq)]
enum AtomKind {
    /// `..._Atom<T>`.
    Typed,
    /// `..._SpAtom<T, S>`.
    Sparse,
    /// `..._Atom_Bits` (GMMA only).
    Bits,
}

fn parse_name(name: &str) -> Option<AtomName> {
    let name = name.strip_prefix("cute::").unwrap_or(name);
    let (ns, rest) = name.split_once("::")?;
    let rest = rest.strip_prefix("Layout_")?;
    let (major, rest) = rest.split_once('_')?;
    let k_major = match major {
        "K" => true,
        "MN" => false,
        _ => return None,
    };
    let (sw, kind) = if let Some(sw) = rest.strip_suffix("_Atom_Bits") {
        (sw, AtomKind::Bits)
    } else if let Some(sw) = rest.strip_suffix("_SpAtom") {
        (sw, AtomKind::Sparse)
    } else {
        (rest.strip_suffix("_Atom")?, AtomKind::Typed)
    };
    let &(_, b, m, s, row_bits) = SWIZZLES.iter().find(|x| x.0 == sw)?;
    // the 32B-based SW128 atom is UMMA's and MN-major only; `_Bits` atoms are GMMA's
    let ok = match (ns, sw, &kind) {
        (_, "SW128_32B", _) if k_major || ns != "UMMA" => false,
        ("UMMA", _, AtomKind::Bits) => false,
        ("GMMA" | "UMMA", _, _) => true,
        _ => false,
    };
    ok.then_some(AtomName { k_major, b, m, s, row_bits, kind })
}

/// CuTe's shared-memory atom `name<args...>`: `GMMA::` or `UMMA::`
/// `Layout_{K,MN}_{INTER,SW32,SW64,SW128}_Atom<T>`, `UMMA::Layout_MN_SW128_32B_Atom<T>`,
/// `..._SpAtom<T, S>` (sparse), `GMMA::..._Atom_Bits` (no arguments).
///
/// Pre: the name is one of them (else an `UnknownName` error, with the
/// spellings: `UMMA::Layout_K_SW128_Atom_Bits` does not exist); `T` an element
/// type, `S` a positive integer (else `UnknownName` / `Mismatch`).
/// Post: `Sw<B,M,S> o smem_ptr[bits(T)b](unset) o L`, `L` the atom's tile of
/// `T` elements (8 rows of one swizzle row each: K-major `(8, W):(W, 1)`,
/// MN-major `(W, 8):(1, W)`, `W` = the row's bits / bits(T)); the sparse atoms
/// `blocked_product((_1,S), L)` behind `smem_sparse<S>_ptr[...]`.
///
/// ```
/// use kute::atom::smem::smem_atom;
/// assert_eq!(smem_atom("UMMA::Layout_K_SW64_SpAtom", &["half_t", "2"]).unwrap().to_string(),
///            "Sw<2,4,3> o smem_sparse<2>_ptr[16b](unset) o ((_1,_8),(_2,_32)):((_0,_64),(_1,_2))");
/// assert!(smem_atom("UMMA::Layout_K_SW128_Atom_Bits", &[]).is_err());
/// ```
pub fn smem_atom(name: &str, args: &[&str]) -> Result<ComposedLayout> {
    let op = "smem_atom";
    let Some(a) = parse_name(name) else {
        return Err(Error::new(
            ErrorKind::UnknownName,
            op,
            format!(
                "'{name}' is not a shared-memory atom: GMMA:: or UMMA::Layout_{{K,MN}}_{{INTER,SW32,SW64,SW128}}_Atom<T>, \
                 UMMA::Layout_MN_SW128_32B_Atom<T>, ..._SpAtom<T,S>, GMMA::..._Atom_Bits"
            ),
        ));
    };
    let (ty, sparsity) = match (&a.kind, args) {
        (AtomKind::Bits, []) => (None, None),
        (AtomKind::Typed, [t]) => (Some(*t), None),
        (AtomKind::Sparse, [t, s]) => {
            let s = s.parse::<i64>().ok().filter(|&s| s > 0).ok_or_else(|| {
                Error::mismatch(op, format!("{name}: the sparsity must be a positive integer, not '{s}'"))
            })?;
            (Some(*t), Some(s))
        }
        _ => {
            let form = match a.kind {
                AtomKind::Bits => "no template arguments",
                AtomKind::Typed => "<T>",
                AtomKind::Sparse => "<T, S>",
            };
            return Err(Error::mismatch(op, format!("{name} takes {form}")));
        }
    };
    let bits = match ty {
        None => 1,
        Some(t) => algebra::sizeof_bits(t).ok_or_else(|| {
            Error::new(
                ErrorKind::UnknownName,
                op,
                format!("'{t}' is not an element type{}", crate::atom::traits::type_hint(t)),
            )
        })?,
    };
    let rows = if a.m == 5 { 4 } else { 8 };
    let w = a.row_bits;
    let base: Layout =
        if a.k_major { format!("(_{rows},_{w}):(_{w},_1)") } else { format!("(_{w},_{rows}):(_1,_{w})") }
            .parse()
            .map_err(|e: Error| e.in_op(op))?;
    let tile = if bits == 1 { base } else { algebra::upcast(&base, bits)? };
    let tile = match sparsity {
        Some(s) => algebra::blocked_product(&format!("(_1,_{s}):(_0,_1)").parse::<Layout>()?, &tile)?,
        None => tile,
    };
    Ok(ComposedLayout::with_flag(
        AnyLayout::Swizzle(Swizzle::new(a.b, a.m, a.s)?),
        PtrFlag { bits, sparsity },
        AnyLayout::Layout(tile),
    ))
}
