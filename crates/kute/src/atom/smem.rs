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

/// The swizzle mode of a GMMA / UMMA shared-memory descriptor (CuTe's
/// `GMMA::LayoutType`, `UMMA::LayoutType`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum SmemLayoutType {
    /// No swizzle (`Swizzle<0,4,3>`): 8×16-byte core matrices (GMMA's `INTERLEAVE`).
    SwizzleNone,
    /// `Swizzle<1,4,3>` (GMMA's `B32`).
    Swizzle32B,
    /// `Swizzle<2,4,3>` (GMMA's `B64`).
    Swizzle64B,
    /// `Swizzle<3,4,3>` (GMMA's `B128`).
    Swizzle128B,
    /// `Swizzle<2,5,2>`: the 128-byte swizzle on 32-byte units (UMMA, MN-major only).
    Swizzle128BBase32B,
}

/// Which descriptor: SM90's `GmmaDescriptor` or SM100's `UMMA::SmemDescriptor`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum DescArch {
    /// `GMMA::make_gmma_desc` (wgmma).
    Gmma,
    /// `UMMA::make_umma_desc` (tcgen05).
    Umma,
}

impl DescArch {
    fn name(self) -> &'static str {
        match self {
            DescArch::Gmma => "GMMA",
            DescArch::Umma => "UMMA",
        }
    }
}

impl SmemLayoutType {
    /// CuTe's `layout_type` of a swizzle on byte addresses.
    fn of(sw: Swizzle, arch: DescArch) -> Result<SmemLayoutType> {
        let op = if arch == DescArch::Gmma { "make_gmma_desc" } else { "make_umma_desc" };
        let bad = |why: String| {
            Error::new(ErrorKind::Inadmissible, op, format!("Sw<{},{},{}>: {why}", sw.bits(), sw.base(), sw.shift()))
        };
        match (sw.bits(), sw.base(), sw.shift(), arch) {
            (0, 4, 3, _) => Ok(SmemLayoutType::SwizzleNone),
            (1, 4, 3, _) => Ok(SmemLayoutType::Swizzle32B),
            (2, 4, 3, _) => Ok(SmemLayoutType::Swizzle64B),
            (3, 4, 3, _) => Ok(SmemLayoutType::Swizzle128B),
            (2, 5, 2, DescArch::Umma) => Ok(SmemLayoutType::Swizzle128BBase32B),
            (_, 4, s, _) if s != 3 => Err(bad("expected S = 3 when M == 4; unsupported layout swizzle".into())),
            (_, 4, _, _) => Err(bad("expected B = 0, 1, 2 or 3 when M == 4; unsupported layout swizzle".into())),
            (_, 5, _, DescArch::Umma) => {
                Err(bad("expected B = 2 and S = 2 when M == 5; unsupported layout swizzle".into()))
            }
            (.., DescArch::Umma) => Err(bad(
                "only 16B and 32B atoms are supported for UMMA (M = 4 or 5); unsupported layout swizzle".into(),
            )),
            (.., DescArch::Gmma) => Err(bad("unsupported layout swizzle (GMMA takes Sw<0..3,4,3>)".into())),
        }
    }

    /// The swizzle atom's extent in 16-byte units along MN (CuTe's `SwizzleAtomMNSize`, `W`).
    fn atom_mn(self) -> i64 {
        match self {
            SmemLayoutType::SwizzleNone => 1,
            SmemLayoutType::Swizzle32B => 2,
            SmemLayoutType::Swizzle64B => 4,
            SmemLayoutType::Swizzle128B | SmemLayoutType::Swizzle128BBase32B => 8,
        }
    }

    /// CuTe's name and code of the mode in the descriptor of `arch`.
    fn code(self, arch: DescArch) -> (&'static str, u64) {
        match (arch, self) {
            (DescArch::Gmma, SmemLayoutType::SwizzleNone) => ("INTERLEAVE", 0),
            (DescArch::Gmma, SmemLayoutType::Swizzle128B) => ("B128", 1),
            (DescArch::Gmma, SmemLayoutType::Swizzle64B) => ("B64", 2),
            (DescArch::Gmma, SmemLayoutType::Swizzle32B) => ("B32", 3),
            (_, SmemLayoutType::SwizzleNone) => ("SWIZZLE_NONE", 0),
            (_, SmemLayoutType::Swizzle128BBase32B) => ("SWIZZLE_128B_BASE32B", 1),
            (_, SmemLayoutType::Swizzle128B) => ("SWIZZLE_128B", 2),
            (_, SmemLayoutType::Swizzle64B) => ("SWIZZLE_64B", 4),
            (_, SmemLayoutType::Swizzle32B) => ("SWIZZLE_32B", 6),
        }
    }
}

/// The fields of a GMMA / UMMA shared-memory descriptor that a layout
/// determines (the start address is the tensor's, 0 here). Offsets are in
/// 16-byte units, as the descriptor holds them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct SmemDesc {
    /// The descriptor's kind.
    pub arch: DescArch,
    /// The swizzle mode.
    pub layout_type: SmemLayoutType,
    /// The leading-dimension byte offset (LBO), in 16-byte units.
    pub leading_byte_offset: i64,
    /// The stride-dimension byte offset (SBO), in 16-byte units.
    pub stride_byte_offset: i64,
}

impl SmemDesc {
    /// The descriptor's 64 bits, as CuTe's `GmmaDescriptor` / `UMMA::SmemDescriptor`
    /// lay out their fields (start address 0; UMMA: version 1).
    ///
    /// Pre: none. Post: LBO at bits 16..30, SBO at 32..46, the layout type at
    /// 62..64 (GMMA) or 61..64 (UMMA), UMMA's version 1 at bit 46.
    ///
    /// ```
    /// use kute::atom::smem::{make_gmma_desc, make_umma_desc};
    /// let tile = "tile_to_shape(GMMA::Layout_K_SW128_Atom<half_t>{},(_64,_64))";
    /// let l = kute::expr::eval(tile).unwrap().to_any_layout("l").unwrap();
    /// assert_eq!(make_umma_desc(&l, 16, true).unwrap().bits(), 0x4000_4040_0001_0000);
    /// // a wgmma reads one K block (16 halves) of it
    /// let k_block = kute::expr::eval(&format!("composition({tile},(_64,_16))")).unwrap();
    /// let d = make_gmma_desc(&k_block.to_any_layout("l").unwrap(), 16, true).unwrap();
    /// assert_eq!(d.bits(), 0x4000_0040_0001_0000);
    /// ```
    pub fn bits(&self) -> u64 {
        let (_, ty) = self.layout_type.code(self.arch);
        let field = |v: i64| (v as u64) & 0x3fff;
        let common = field(self.leading_byte_offset) << 16 | field(self.stride_byte_offset) << 32;
        match self.arch {
            DescArch::Gmma => common | ty << 62,
            DescArch::Umma => common | 1 << 46 | ty << 61,
        }
    }
}

impl std::fmt::Display for SmemDesc {
    /// CuTe's `print(GmmaDescriptor)`; for UMMA (CuTe has no print) the same form
    /// with `UMMA::SmemDescriptor`'s fields.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let (name, code) = self.layout_type.code(self.arch);
        let (lbo, sbo) = (self.leading_byte_offset, self.stride_byte_offset);
        match self.arch {
            DescArch::Gmma => writeln!(f, "GmmaDescriptor: 0x{:016x}", self.bits())?,
            DescArch::Umma => writeln!(f, "UMMA::SmemDescriptor: 0x{:016x}", self.bits())?,
        }
        writeln!(f, "  start_addr :  0x0000")?;
        writeln!(f, "  leading_off:  0x{lbo:04x} ({lbo})")?;
        writeln!(f, "  stride_off :  0x{sbo:04x} ({sbo})")?;
        writeln!(f, "  base_offset:  0x0")?;
        if self.arch == DescArch::Umma {
            writeln!(f, "  version    :  1")?;
            writeln!(f, "  lbo_mode   :  0")?;
        }
        write!(f, "  layout_type:  0x{code:x} ({name})")
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
pub fn make_umma_desc(layout: &AnyLayout, elem_bits: i64, k_major: bool) -> Result<SmemDesc> {
    smem_desc(layout, elem_bits, k_major, DescArch::Umma)
}

/// CuTe's `GMMA::make_gmma_desc<Major>(tensor)` (SM90 wgmma) read off a
/// shared-memory layout of `elem_bits`-bit elements: as [`make_umma_desc`],
/// with GMMA's swizzles (no 32-byte-based one) and its K extents: an MN-major
/// tile is one wgmma deep (256 bits of K; 128 or 512 for the sparse A and B),
/// a K-major one 2 (dense) or 4 (sparse) 16-byte units.
///
/// Pre: as [`make_umma_desc`]. Post: the descriptor; an `Inadmissible` error
/// naming CuTe's rule otherwise.
///
/// ```
/// use kute::atom::smem::make_gmma_desc;
/// let l = kute::expr::eval("tile_to_shape(GMMA::Layout_MN_SW128_Atom<half_t>{},(_128,_16))").unwrap();
/// let d = make_gmma_desc(&l.to_any_layout("l").unwrap(), 16, false).unwrap();
/// assert_eq!((d.leading_byte_offset, d.stride_byte_offset), (64, 128));
/// let wide = kute::expr::eval("tile_to_shape(GMMA::Layout_K_SW128_Atom<half_t>{},(_64,_128))").unwrap();
/// assert!(make_gmma_desc(&wide.to_any_layout("l").unwrap(), 16, true).unwrap_err().to_string()
///     .contains("Expected K-size 2 for dense or 4 for sparse"));
/// ```
pub fn make_gmma_desc(layout: &AnyLayout, elem_bits: i64, k_major: bool) -> Result<SmemDesc> {
    smem_desc(layout, elem_bits, k_major, DescArch::Gmma)
}

fn smem_desc(layout: &AnyLayout, elem_bits: i64, k_major: bool, arch: DescArch) -> Result<SmemDesc> {
    let op = if arch == DescArch::Gmma { "make_gmma_desc" } else { "make_umma_desc" };
    let a = arch.name();
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
            "{a} descriptors can only be constructed on rank-2 tensors; {inner} has rank {}",
            inner.rank()
        )));
    }
    if elem_bits <= 0 || 128 % elem_bits != 0 {
        return Err(inadmissible(format!("{elem_bits}-bit elements do not recast to uint128_t")));
    }
    let ty = SmemLayoutType::of(sw, arch)?;
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
    let none = ty == SmemLayoutType::SwizzleNone;
    if k_major {
        let what = format!("{a}_K");
        if ty == SmemLayoutType::Swizzle128BBase32B {
            return Err(inadmissible("SWIZZLE_128B_BASE32B is invalid for Major-K".into()));
        }
        let mn = u128.mode(0)?.size()?.value();
        if mn % 8 != 0 {
            return Err(inadmissible(format!(
                "Not a canonical {what} Layout: Expected MN-size multiple of 8 (16-byte layout {u128})"
            )));
        }
        let k = u128.mode(1)?.size()?.value();
        if arch == DescArch::Gmma && k != 2 && k != 4 {
            return Err(inadmissible(format!(
                "Not a canonical {what} Layout: Expected K-size 2 for dense or 4 for sparse (in units of uint128_t; \
                 16-byte layout {u128})"
            )));
        }
        let c = algebra::logical_divide(&u128, &tile(8, 2)?)?;
        canonical(&c, &what)?;
        let (s00, s10) = (stride(&c, 0, 0)?, stride(&c, 1, 0)?);
        if s00 != ty.atom_mn() || (!none && s10 != 1) {
            return Err(inadmissible(format!(
                "Not a canonical {what} Layout: Expected stride failure (16-byte layout {c}: stride<0,0> {s00}, \
                 expected {}; stride<1,0> {s10}{})",
                ty.atom_mn(),
                if none { "" } else { ", expected 1" }
            )));
        }
        Ok(SmemDesc { arch, layout_type: ty, leading_byte_offset: s10, stride_byte_offset: stride(&c, 0, 1)? })
    } else {
        let what = format!("{a}_MN");
        if arch == DescArch::Gmma {
            let k = inner.mode(1)?.size()?.value();
            if ![256, 128, 512].iter().any(|&b| b / elem_bits == k) {
                return Err(inadmissible(format!(
                    "Not a canonical {what} Layout: Expected K-size 256/sizeof_bits<T> for dense or \
                     (128|512)/sizeof_bits<T> for sparse (K is {k} of {elem_bits}-bit elements)"
                )));
            }
        }
        let atom_k = if ty == SmemLayoutType::Swizzle128BBase32B { 4 } else { 8 };
        let c = algebra::logical_divide(&u128, &tile(ty.atom_mn(), atom_k)?)?;
        canonical(&c, &what)?;
        let (s00, s10) = (stride(&c, 0, 0)?, stride(&c, 1, 0)?);
        if (!none && s00 != 1) || s10 != ty.atom_mn() {
            return Err(inadmissible(format!(
                "Not a canonical {what} Layout: Expected stride failure (16-byte layout {c}: stride<0,0> {s00}{}; \
                 stride<1,0> {s10}, expected {})",
                if none { "" } else { ", expected 1" },
                ty.atom_mn()
            )));
        }
        let (s01, s11) = (stride(&c, 0, 1)?, stride(&c, 1, 1)?);
        Ok(SmemDesc {
            arch,
            layout_type: ty,
            leading_byte_offset: if none { s11 } else { s01 },
            stride_byte_offset: if none { s01 } else { s11 },
        })
    }
}
