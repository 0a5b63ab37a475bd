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

/// The swizzle mode of a UMMA shared-memory descriptor (CuTe's `UMMA::LayoutType`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum UmmaLayoutType {
    /// No swizzle (`Swizzle<0,4,3>`): 8×16-byte core matrices.
    SwizzleNone,
    /// `Swizzle<1,4,3>`.
    Swizzle32B,
    /// `Swizzle<2,4,3>`.
    Swizzle64B,
    /// `Swizzle<3,4,3>`.
    Swizzle128B,
    /// `Swizzle<2,5,2>`: the 128-byte swizzle on 32-byte units (MN-major only).
    Swizzle128BBase32B,
}

impl UmmaLayoutType {
    /// CuTe's `UMMA::layout_type` of a swizzle on byte addresses.
    fn of(sw: Swizzle) -> Result<UmmaLayoutType> {
        let op = "make_umma_desc";
        let bad = |why: String| {
            Error::new(ErrorKind::Inadmissible, op, format!("Sw<{},{},{}>: {why}", sw.bits(), sw.base(), sw.shift()))
        };
        match (sw.bits(), sw.base(), sw.shift()) {
            (0, 4, 3) => Ok(UmmaLayoutType::SwizzleNone),
            (1, 4, 3) => Ok(UmmaLayoutType::Swizzle32B),
            (2, 4, 3) => Ok(UmmaLayoutType::Swizzle64B),
            (3, 4, 3) => Ok(UmmaLayoutType::Swizzle128B),
            (2, 5, 2) => Ok(UmmaLayoutType::Swizzle128BBase32B),
            (_, 4, s) if s != 3 => Err(bad("expected S = 3 when M == 4; unsupported layout swizzle".into())),
            (_, 4, _) => Err(bad("expected B = 0, 1, 2 or 3 when M == 4; unsupported layout swizzle".into())),
            (_, 5, _) => Err(bad("expected B = 2 and S = 2 when M == 5; unsupported layout swizzle".into())),
            _ => Err(bad(
                "only 16B and 32B atoms are supported for UMMA (M = 4 or 5); unsupported layout swizzle".into()
            )),
        }
    }

    /// The swizzle atom's extent in 16-byte units along MN (CuTe's `SwizzleAtomMNSize`).
    fn atom_mn(self) -> i64 {
        match self {
            UmmaLayoutType::SwizzleNone => 1,
            UmmaLayoutType::Swizzle32B => 2,
            UmmaLayoutType::Swizzle64B => 4,
            UmmaLayoutType::Swizzle128B | UmmaLayoutType::Swizzle128BBase32B => 8,
        }
    }

    /// CuTe's name of the mode.
    fn name(self) -> &'static str {
        match self {
            UmmaLayoutType::SwizzleNone => "SWIZZLE_NONE",
            UmmaLayoutType::Swizzle32B => "SWIZZLE_32B",
            UmmaLayoutType::Swizzle64B => "SWIZZLE_64B",
            UmmaLayoutType::Swizzle128B => "SWIZZLE_128B",
            UmmaLayoutType::Swizzle128BBase32B => "SWIZZLE_128B_BASE32B",
        }
    }
}

/// The fields of a UMMA shared-memory descriptor (CuTe's `UMMA::SmemDescriptor`)
/// that a layout determines; the start address is the tensor's (0 here).
/// Offsets are in 16-byte units, as the descriptor holds them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct UmmaDesc {
    /// The swizzle mode.
    pub layout_type: UmmaLayoutType,
    /// The leading-dimension byte offset (LBO), in 16-byte units.
    pub leading_byte_offset: i64,
    /// The stride-dimension byte offset (SBO), in 16-byte units.
    pub stride_byte_offset: i64,
}

impl std::fmt::Display for UmmaDesc {
    /// The descriptor's fields, CuTe's names (`UMMA::SmemDescriptor` has no print of its own).
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "UMMA::SmemDescriptor{{start_address: 0, leading_byte_offset: {}, stride_byte_offset: {}, \
             version: 1, base_offset: 0, lbo_mode: 0, layout_type: {}}}",
            self.leading_byte_offset,
            self.stride_byte_offset,
            self.layout_type.name()
        )
    }
}

/// CuTe's `UMMA::make_umma_desc<Major>(tensor)` read off a shared-memory
/// layout of `elem_bits`-bit elements: the layout recast to 16-byte units,
/// divided into its canonical form, its strides checked and read.
///
/// Pre: `layout` is `Sw<B,M,S> o offset-0-or-smem_ptr-flag o L` (a swizzle on
/// byte addresses, as the GMMA/UMMA atoms) or a plain layout (no swizzle), `L`
/// of rank 2 (MN, K) in elements; `k_major` says which mode is contiguous.
/// Post: the descriptor's layout type, LBO and SBO; an `Inadmissible` error
/// naming CuTe's rule otherwise ("Not a canonical UMMA_K Layout: Expected
/// stride failure", a swizzle UMMA does not support, ...).
///
/// ```
/// use kute::atom::smem::make_umma_desc;
/// let l = kute::expr::eval("tile_to_shape(UMMA::Layout_K_SW128_Atom<half_t>{},(_128,_64))").unwrap();
/// let d = make_umma_desc(&l.to_any_layout("l").unwrap(), 16, true).unwrap();
/// assert_eq!((d.leading_byte_offset, d.stride_byte_offset), (1, 64));
/// let mn = kute::expr::eval("tile_to_shape(UMMA::Layout_MN_SW128_Atom<half_t>{},(_128,_64))").unwrap();
/// assert!(make_umma_desc(&mn.to_any_layout("l").unwrap(), 16, true).is_err());
/// ```
pub fn make_umma_desc(layout: &AnyLayout, elem_bits: i64, k_major: bool) -> Result<UmmaDesc> {
    let op = "make_umma_desc";
    let inadmissible = |why: String| Error::new(ErrorKind::Inadmissible, op, why);
    let (sw, inner) = match layout {
        AnyLayout::Layout(l) => (Swizzle::new(0, 4, 3)?, l.clone()),
        AnyLayout::Composed(c) => {
            let (Some(sw), true, AnyLayout::Layout(l)) = (c.swizzle(), c.offset().value() == 0, c.inner()) else {
                return Err(inadmissible(format!(
                    "{c}: expected a swizzle on byte addresses over a plain layout, at offset 0"
                )));
            };
            if let Some(flag) = c.flag()
                && flag.bits != elem_bits
            {
                return Err(inadmissible(format!(
                    "{c}: the atom is for {}-bit elements, the tensor's are {elem_bits}-bit",
                    flag.bits
                )));
            }
            (sw, l.clone())
        }
        AnyLayout::Swizzle(s) => return Err(inadmissible(format!("{s} is a swizzle, not a layout of the tile"))),
    };
    if inner.rank() != 2 {
        return Err(inadmissible(format!(
            "UMMA descriptors can only be constructed on rank-2 tensors; {inner} has rank {}",
            inner.rank()
        )));
    }
    if elem_bits <= 0 || 128 % elem_bits != 0 {
        return Err(inadmissible(format!("{elem_bits}-bit elements do not recast to uint128_t")));
    }
    let ty = UmmaLayoutType::of(sw)?;
    let u128 = algebra::upcast(&inner, 128 / elem_bits)?;
    let stride = |l: &Layout, i: usize, j: usize| -> Result<i64> { Ok(l.mode(i)?.mode(j)?.leaves()[0].stride.value()) };
    let canonical = |l: &Layout, what: &str| -> Result<()> {
        let ok = l.rank() == 2 && (0..2).all(|i| l.mode(i).is_ok_and(|m| m.rank() == 2 && m.depth() == 1));
        if ok {
            Ok(())
        } else {
            Err(inadmissible(format!("Not a canonical {what} Layout: Expected profile failure ({l})")))
        }
    };
    let tile = |a: i64, b: i64| -> Result<crate::tiler::Tiler> { format!("<_{a}:_1,_{b}:_1>").parse() };
    if k_major {
        if ty == UmmaLayoutType::Swizzle128BBase32B {
            return Err(inadmissible("SWIZZLE_128B_BASE32B is invalid for Major-K".into()));
        }
        let mn = u128.mode(0)?.size()?.value();
        if mn % 8 != 0 {
            return Err(inadmissible(format!(
                "Not a canonical UMMA_K Layout: Expected MN-size multiple of 8 (16-byte layout {u128})"
            )));
        }
        let c = algebra::logical_divide(&u128, &tile(8, 2)?)?;
        canonical(&c, "UMMA_K")?;
        let (s00, s10) = (stride(&c, 0, 0)?, stride(&c, 1, 0)?);
        if s00 != ty.atom_mn() || (ty != UmmaLayoutType::SwizzleNone && s10 != 1) {
            return Err(inadmissible(format!(
                "Not a canonical UMMA_K Layout: Expected stride failure (16-byte layout {c}: stride<0,0> {s00}, expected {}; stride<1,0> {s10}{})",
                ty.atom_mn(),
                if ty == UmmaLayoutType::SwizzleNone { "" } else { ", expected 1" }
            )));
        }
        Ok(UmmaDesc { layout_type: ty, leading_byte_offset: s10, stride_byte_offset: stride(&c, 0, 1)? })
    } else {
        let atom_k = if ty == UmmaLayoutType::Swizzle128BBase32B { 4 } else { 8 };
        let c = algebra::logical_divide(&u128, &tile(ty.atom_mn(), atom_k)?)?;
        canonical(&c, "UMMA_MN")?;
        let (s00, s10) = (stride(&c, 0, 0)?, stride(&c, 1, 0)?);
        if (ty != UmmaLayoutType::SwizzleNone && s00 != 1) || s10 != ty.atom_mn() {
            return Err(inadmissible(format!(
                "Not a canonical UMMA_MN Layout: Expected stride failure (16-byte layout {c}: stride<0,0> {s00}{}; stride<1,0> {s10}, expected {})",
                if ty == UmmaLayoutType::SwizzleNone { "" } else { ", expected 1" },
                ty.atom_mn()
            )));
        }
        let (s01, s11) = (stride(&c, 0, 1)?, stride(&c, 1, 1)?);
        let none = ty == UmmaLayoutType::SwizzleNone;
        Ok(UmmaDesc {
            layout_type: ty,
            leading_byte_offset: if none { s11 } else { s01 },
            stride_byte_offset: if none { s01 } else { s11 },
        })
    }
}
