//! Layouts as maps over F2 (bits and xor): the view Triton's "linear layouts"
//! take of swizzles and power-of-two layouts.
//!
//! A layout of size `2^n` is *xor-linear* when each value is the xor of the
//! values of the coordinate's set bits: `L(x) = ⊕ { L(2^k) : bit k of x is set }`
//! (so `L(0) = 0`). Swizzles are, and so are their compositions with layouts
//! of power-of-two extents and strides whose images do not overlap. Such a
//! map is a bit matrix ([`BitMatrix`]): column `k` is `L(2^k)`.
//!
//! [`LinearLayout`] is Triton's form of the same map: for each named input
//! dimension (here the layout's top-level modes, `dim0`, `dim1`, ...), one
//! basis vector per input bit (the value of that bit alone), and one output
//! dimension, the offset. [`LinearLayout::to_layout`] goes back to a kute
//! layout, plain or swizzled, where one exists.

use crate::composed::{compose3, AnyLayout};
use crate::error::{Error, Result};
use crate::int::Int;
use crate::int_tuple::IntTuple;
use crate::layout::Layout;
use crate::swizzle::Swizzle;
use std::fmt;

/// Most input bits a bit matrix has (its domain stays below `2^24` points, the
/// budget of [`MAX_POINTS`](crate::limits::MAX_POINTS)).
pub const MAX_INPUT_BITS: u32 = 24;

/// An F2-linear map from `n` input bits to integers: column `k` is the image
/// of bit `k`.
///
/// ```
/// use kute::f2::BitMatrix;
/// let l = kute::expr::eval("Sw<1,0,1> o _0 o _4:_1").unwrap().to_any_layout("l").unwrap();
/// let m = BitMatrix::of(&l).unwrap();
/// assert_eq!(m.columns(), &[1, 3]);
/// assert_eq!(m.apply(3), 2);
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BitMatrix {
    columns: Vec<i64>,
}

fn log2_size(op: &'static str, l: &AnyLayout) -> Result<u32> {
    let n = l.size()?.value();
    if n <= 0 || n & (n - 1) != 0 {
        return Err(Error::inadmissible(op, format!("{l} has size {n}, not a power of two: it has no F2 view")));
    }
    let bits = n.trailing_zeros();
    if bits > MAX_INPUT_BITS {
        return Err(Error::limit(op, format!("{l} has 2^{bits} points, past kute's limit of 2^{MAX_INPUT_BITS}")));
    }
    Ok(bits)
}

/// The part of `l` with basis strides (a coordinate layout), if any.
fn coordinate_part(l: &AnyLayout) -> Option<&Layout> {
    match l {
        AnyLayout::Layout(p) if !p.has_int_strides() => Some(p),
        AnyLayout::Layout(_) | AnyLayout::Swizzle(_) => None,
        AnyLayout::Composed(c) => coordinate_part(c.outer()).or_else(|| coordinate_part(c.inner())),
    }
}

impl BitMatrix {
    /// The bit matrix of an xor-linear layout (plain, swizzled or composed).
    ///
    /// Pre: integer strides (a coordinate layout, with basis strides, is an
    /// `Inadmissible` error); the size is a power of two `2^n`, `n <= 24` (else an
    /// `Inadmissible` or `Limit` error), and the map is xor-linear at every
    /// point (else an `Inadmissible` error naming the first point where
    /// `L(x)` is not the xor of its bits' values); values are non-negative.
    /// Post: `apply(x) == L(x)` for every `x < 2^n`.
    ///
    /// ```
    /// use kute::{f2::BitMatrix, AnyLayout};
    /// // column k is L(2^k): (1,0) -> 8, (2,0) -> 16, (0,1) -> 1, (0,2) -> 2, (0,4) -> 4
    /// let m = BitMatrix::of(&AnyLayout::Layout("(_4,_8):(_8,_1)".parse().unwrap())).unwrap();
    /// assert_eq!(m.columns(), &[8, 16, 1, 2, 4]);
    /// let sw = kute::expr::eval("Sw<3,4,3> o _0 o (_8,_64):(_64,_1)").unwrap().to_any_layout("l").unwrap();
    /// assert_eq!(BitMatrix::of(&sw).unwrap().apply(37), 356); // CuTe's value at 37
    /// assert!(BitMatrix::of(&AnyLayout::Layout("_6:_1".parse().unwrap())).is_err()); // size 6
    /// assert!(BitMatrix::of(&AnyLayout::Layout("_4:_3".parse().unwrap())).is_err()); // L(3) = 9, not 3 ^ 6
    /// let id = kute::expr::eval("make_identity_layout((_4,_4))").unwrap().to_any_layout("l").unwrap();
    /// assert!(BitMatrix::of(&id).unwrap_err().to_string().contains("no F2-linear index map"));
    /// ```
    pub fn of(l: &AnyLayout) -> Result<BitMatrix> {
        crate::sym::refuse("f2", || l.has_symbols())?;
        let op = "f2";
        if let Some(part) = coordinate_part(l) {
            return Err(Error::inadmissible(
                op,
                format!(
                    "{part} is a coordinate layout (its strides are basis strides): its values are coordinates, \
                     not integer offsets, so it has no F2-linear index map"
                ),
            ));
        }
        let n = log2_size(op, l)?;
        let at = |x: i64| -> Result<i64> { Ok(l.eval_int(Int::new_dynamic(x))?.value()) };
        let columns = (0..n).map(|k| at(1i64 << k)).collect::<Result<Vec<_>>>()?;
        if let Some(&c) = columns.iter().find(|&&c| c < 0) {
            return Err(Error::inadmissible(
                op,
                format!("{l} has the negative value {c}: bits need non-negative offsets"),
            ));
        }
        let m = BitMatrix { columns };
        for x in 0..(1i64 << n) {
            let (got, want) = (at(x)?, m.apply(x));
            if got != want {
                return Err(Error::inadmissible(
                    op,
                    format!("{l} is not xor-linear: at {x} it is {got}, the xor of its bits' values is {want}"),
                ));
            }
        }
        Ok(m)
    }

    /// The matrix with the given columns (images of the input bits).
    ///
    /// Pre: at most 24 columns, each non-negative (else an `Inadmissible` error).
    /// Post: `columns()` is `columns`.
    ///
    /// ```
    /// let m = kute::f2::BitMatrix::from_columns(vec![1, 6, 2]).unwrap();
    /// assert_eq!((m.apply(0b011), m.output_bits()), (7, 3));
    /// assert_eq!(m.columns(), &[1, 6, 2]);
    /// assert!(kute::f2::BitMatrix::from_columns(vec![-1]).is_err());
    /// ```
    pub fn from_columns(columns: Vec<i64>) -> Result<BitMatrix> {
        if columns.len() > MAX_INPUT_BITS as usize || columns.iter().any(|&c| c < 0) {
            return Err(Error::inadmissible("f2", "a bit matrix has at most 24 columns, each non-negative"));
        }
        Ok(BitMatrix { columns })
    }

    /// The images of the input bits, bit 0 first.
    ///
    /// Pre: none. Post: one column per input bit, as the matrix was built with.
    ///
    /// ```
    /// let m = kute::f2::BitMatrix::from_columns(vec![4, 1]).unwrap();
    /// assert_eq!(m.columns(), &[4, 1]);
    /// ```
    pub fn columns(&self) -> &[i64] {
        &self.columns
    }

    /// The xor of the columns of `x`'s set bits.
    ///
    /// Pre: none (bits of `x` past the last column are ignored).
    /// Post: `⊕ { columns()[k] : bit k of x is set }`; 0 for `x == 0`.
    ///
    /// ```
    /// let m = kute::f2::BitMatrix::from_columns(vec![1, 6, 2]).unwrap();
    /// assert_eq!((m.apply(0), m.apply(0b101), m.apply(0b110), m.apply(0b111)), (0, 1 ^ 2, 6 ^ 2, 1 ^ 6 ^ 2));
    /// assert_eq!(m.apply(0b1000), 0); // no fourth column
    /// ```
    pub fn apply(&self, x: i64) -> i64 {
        self.columns.iter().enumerate().filter(|(k, _)| x >> k & 1 == 1).fold(0, |a, (_, &c)| a ^ c)
    }

    /// Number of output bits (one past the highest bit of any column).
    ///
    /// Pre: none. Post: the least `m` with every column `< 2^m` (0 when all
    /// columns are 0, or there are none).
    ///
    /// ```
    /// use kute::f2::BitMatrix;
    /// assert_eq!(BitMatrix::from_columns(vec![8, 16, 1, 2, 4]).unwrap().output_bits(), 5);
    /// assert_eq!(BitMatrix::from_columns(vec![1, 6, 2]).unwrap().output_bits(), 3);
    /// assert_eq!(BitMatrix::from_columns(vec![0, 0]).unwrap().output_bits(), 0);
    /// ```
    pub fn output_bits(&self) -> u32 {
        64 - self.columns.iter().fold(0i64, |a, &c| a | c).leading_zeros()
    }
}

impl fmt::Display for BitMatrix {
    /// One line per output bit, lowest first: the bit of each input bit's
    /// image, input bit 0 leftmost.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (n, m) = (self.columns.len(), self.output_bits());
        write!(f, "out\\in")?;
        for k in 0..n {
            write!(f, " {k:>2}")?;
        }
        for r in 0..m {
            write!(f, "\n{r:>6}")?;
            for &c in &self.columns {
                write!(f, " {:>2}", c >> r & 1)?;
            }
        }
        Ok(())
    }
}

/// Triton's linear-layout form of an xor-linear layout: per named input
/// dimension, one basis vector (the offset of that bit alone) per input bit;
/// one output dimension, `offset`, of a power-of-two size.
///
/// ```
/// use kute::f2::LinearLayout;
/// let l = kute::expr::eval("Sw<3,4,3> o _0 o (_8,_64):(_64,_1)").unwrap().to_any_layout("l").unwrap();
/// let ll = LinearLayout::of(&l).unwrap();
/// assert_eq!(ll.bases()[0].1, vec![64, 144, 288]); // dim0: the rows, swizzled
/// assert_eq!(ll.bases()[1].1, vec![1, 2, 4, 8, 16, 32]); // dim1: the columns
/// assert_eq!(ll.to_string(), "{dim0: [64, 144, 288], dim1: [1, 2, 4, 8, 16, 32]} -> offset (512)");
/// // and back: the same map on these 512 points (Y bit 512 is never set, so
/// // two swizzle bits suffice)
/// let back = ll.to_layout().unwrap();
/// assert_eq!(back.to_string(), "Sw<2,4,3> o _0 o (_8,_64):(_64,_1)");
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LinearLayout {
    bases: Vec<(String, Vec<i64>)>,
    out_size: i64,
}

impl LinearLayout {
    /// The linear layout of an xor-linear layout whose top-level modes have
    /// power-of-two sizes: input dimension `dim{i}` for mode `i`, its bits the
    /// mode's 1-D coordinate's bits.
    ///
    /// Pre: as [`BitMatrix::of`], and each top-level mode's size a power of two
    /// (else an `Inadmissible` error). Post: the matrix ([`LinearLayout::matrix`])
    /// applied to the 1-D coordinate `x` is `L(x)`, for every `x` in the domain.
    ///
    /// ```
    /// use kute::{f2::LinearLayout, AnyLayout};
    /// // dim0's bits: (1,0) -> 8, (2,0) -> 16; dim1's: (0,1) -> 1, (0,2) -> 2, (0,4) -> 4
    /// let ll = LinearLayout::of(&AnyLayout::Layout("(_4,_8):(_8,_1)".parse().unwrap())).unwrap();
    /// assert_eq!(ll.to_string(), "{dim0: [8, 16], dim1: [1, 2, 4]} -> offset (32)");
    /// assert!(LinearLayout::of(&AnyLayout::Layout("(_2,_3):(_3,_1)".parse().unwrap())).is_err()); // size 6
    /// ```
    pub fn of(l: &AnyLayout) -> Result<LinearLayout> {
        let op = "to_linear_layout";
        let m = BitMatrix::of(l)?;
        let shape = l.shape()?;
        let sizes: Vec<i64> = match shape.as_ref().as_leaf() {
            Some(s) => vec![s.value()],
            None => shape
                .as_ref()
                .children()
                .map(|c| crate::int_tuple::product(c.leaves()).map(|x| x.value()))
                .collect::<Result<_>>()?,
        };
        let mut bases = Vec::new();
        let mut bit = 0usize;
        for (i, s) in sizes.iter().enumerate() {
            if *s <= 0 || s & (s - 1) != 0 {
                return Err(Error::inadmissible(op, format!("mode {i} of {l} has size {s}, not a power of two")));
            }
            let k = s.trailing_zeros() as usize;
            bases.push((format!("dim{i}"), m.columns()[bit..bit + k].to_vec()));
            bit += k;
        }
        let out_size = 1i64 << m.output_bits();
        Ok(LinearLayout { bases, out_size })
    }

    /// A linear layout from its parts: per input dimension, its name and basis
    /// vectors; the output size.
    ///
    /// Pre: at most 24 basis vectors in all, each in `[0, out_size)`, and
    /// `out_size` a power of two (else an `Inadmissible` error).
    /// Post: `bases()` and `out_size()` are those given.
    ///
    /// ```
    /// use kute::f2::LinearLayout;
    /// let ll = LinearLayout::new(vec![("dim0".into(), vec![4, 8]), ("dim1".into(), vec![1, 2])], 16).unwrap();
    /// assert_eq!((ll.bases().len(), ll.out_size(), ll.matrix().columns().to_vec()), (2, 16, vec![4, 8, 1, 2]));
    /// assert_eq!(ll.to_layout().unwrap().to_string(), "(_4,_4):(_4,_1)");
    /// assert!(LinearLayout::new(vec![("dim0".into(), vec![16])], 16).is_err());
    /// ```
    pub fn new(bases: Vec<(String, Vec<i64>)>, out_size: i64) -> Result<LinearLayout> {
        let n: usize = bases.iter().map(|b| b.1.len()).sum();
        let ok = out_size > 0
            && out_size & (out_size - 1) == 0
            && n <= MAX_INPUT_BITS as usize
            && bases.iter().flat_map(|b| &b.1).all(|&v| (0..out_size).contains(&v));
        if !ok {
            return Err(Error::inadmissible(
                "from_linear_layout",
                "a linear layout has at most 24 basis vectors in all, each in [0, out_size), out_size a power of two",
            ));
        }
        Ok(LinearLayout { bases, out_size })
    }

    /// The input dimensions and their basis vectors.
    ///
    /// Pre: none. Post: per input dimension, in order, its name and its basis
    /// vectors (bit 0's first).
    ///
    /// ```
    /// use kute::f2::LinearLayout;
    /// let ll = LinearLayout::new(vec![("dim0".into(), vec![4, 8]), ("dim1".into(), vec![1, 2])], 16).unwrap();
    /// assert_eq!(ll.bases()[1], ("dim1".to_string(), vec![1, 2]));
    /// ```
    pub fn bases(&self) -> &[(String, Vec<i64>)] {
        &self.bases
    }

    /// The size of the output dimension (a power of two).
    ///
    /// Pre: none. Post: a power of two above every basis vector: the one given
    /// to [`LinearLayout::new`], or from [`LinearLayout::of`] the least such.
    ///
    /// ```
    /// use kute::{f2::LinearLayout, AnyLayout};
    /// let l = AnyLayout::Layout("(_4,_8):(_8,_1)".parse().unwrap()); // values 0..32
    /// assert_eq!(LinearLayout::of(&l).unwrap().out_size(), 32);
    /// assert_eq!(LinearLayout::new(vec![("dim0".into(), vec![1, 2])], 64).unwrap().out_size(), 64);
    /// ```
    pub fn out_size(&self) -> i64 {
        self.out_size
    }

    /// All basis vectors, the first dimension's first, as one bit matrix.
    ///
    /// Pre: none. Post: its columns are the basis vectors of `bases()` in
    /// order, so `matrix().apply(x)` is the value at the 1-D coordinate `x`.
    ///
    /// ```
    /// let l = kute::expr::eval("Sw<3,4,3> o _0 o (_8,_64):(_64,_1)").unwrap().to_any_layout("l").unwrap();
    /// let m = kute::f2::LinearLayout::of(&l).unwrap().matrix();
    /// assert_eq!(m.columns(), &[64, 144, 288, 1, 2, 4, 8, 16, 32]);
    /// assert_eq!(m.apply(3 + 8 * 9), 217); // CuTe's value at (3,9)
    /// ```
    pub fn matrix(&self) -> BitMatrix {
        BitMatrix { columns: self.bases.iter().flat_map(|b| b.1.iter().copied()).collect() }
    }

    /// A kute layout with this map: a plain layout (shape `(2^k0, 2^k1, ...)`
    /// by input dimension) when no two basis vectors share a bit, else a
    /// swizzled layout `Sw<B,M,S> o _0 o L` for the first swizzle (fewest
    /// bits, then lowest base and shift) that turns the vectors into such a
    /// plain layout `L`.
    ///
    /// Pre: some plain or swizzled layout has this map (else an
    /// `Inadmissible` error). Post: a layout whose value at every coordinate
    /// is the xor of its bits' basis vectors.
    ///
    /// ```
    /// use kute::f2::LinearLayout;
    /// // no shared bits: dim0 (_2,_2):(_1,_2) -> _4:_1, dim1 (_2,_2,_2):(_4,_8,_16) -> _8:_4
    /// let ll = LinearLayout::new(vec![("dim0".into(), vec![1, 2]), ("dim1".into(), vec![4, 8, 16])], 32).unwrap();
    /// assert_eq!(ll.to_layout().unwrap().to_string(), "(_4,_8):(_1,_4)");
    /// let l = kute::expr::eval("Sw<3,4,3> o _0 o (_8,_128):(_128,_1)").unwrap().to_any_layout("l").unwrap();
    /// let back = LinearLayout::of(&l).unwrap().to_layout().unwrap();
    /// let at = |a: &kute::AnyLayout, x| a.eval_int(kute::Int::new_dynamic(x)).unwrap().value();
    /// assert!((0..1024).all(|x| at(&back, x) == at(&l, x))); // the same map
    /// // 3 ^ 5 == 6: dependent vectors, which no bijection makes distinct powers of two
    /// assert!(LinearLayout::new(vec![("dim0".into(), vec![3, 5, 6])], 8).unwrap().to_layout().is_err());
    /// ```
    pub fn to_layout(&self) -> Result<AnyLayout> {
        let op = "from_linear_layout";
        let cols = self.matrix().columns;
        if let Some(l) = self.plain(&cols)? {
            return Ok(AnyLayout::Layout(l));
        }
        let top = 64 - (self.out_size - 1).max(1).leading_zeros() as i64;
        for b in 1..=top {
            for s in b..=top {
                for sign in [1i64, -1] {
                    for m in 0..=top {
                        let Ok(sw) = Swizzle::new(b, m, sign * s) else { continue };
                        if sw.yyy_mask().max(sw.zzz_mask()) >= self.out_size.max(2) << 1 {
                            continue;
                        }
                        let moved: Vec<i64> = cols.iter().map(|&c| sw.apply(c)).collect();
                        if let Some(l) = self.plain(&moved)? {
                            return Ok(compose3(AnyLayout::Swizzle(sw), Int::ZERO, AnyLayout::Layout(l)));
                        }
                    }
                }
            }
        }
        Err(Error::inadmissible(
            op,
            format!("no plain or swizzled layout has the map {self}: its basis vectors overlap beyond one swizzle"),
        ))
    }

    /// The plain layout with these basis vectors (by dimension), if no two
    /// share a bit and each is 0 or a power of two; its modes coalesced.
    fn plain(&self, cols: &[i64]) -> Result<Option<Layout>> {
        let mut seen = 0i64;
        for &c in cols {
            if c != 0 && (c & (c - 1) != 0 || seen & c != 0) {
                return Ok(None);
            }
            seen |= c;
        }
        let mut modes = Vec::new();
        let mut k = 0;
        for (_, dim) in &self.bases {
            let n = dim.len();
            let two = IntTuple::tuple_of_leaves((0..n).map(|_| Int::new_static(2)));
            let strides = IntTuple::tuple_of_leaves(cols[k..k + n].iter().map(|&c| Int::new_static(c)));
            k += n;
            let mode = if n == 0 { Layout::leaf(Int::ONE, Int::ZERO) } else { Layout::new(&two, &strides)? };
            // the bits of one dimension as one mode: coalesced, a leaf where it can be
            let c = crate::algebra::coalesce(&mode)?;
            modes.push(c);
        }
        Ok(Some(Layout::concat(&modes)?))
    }
}

impl fmt::Display for LinearLayout {
    /// Triton's notation: `{dim0: [64, 128, 256], dim1: [1, 2, ...]} -> offset (512)`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("{")?;
        for (i, (name, v)) in self.bases.iter().enumerate() {
            if i > 0 {
                f.write_str(", ")?;
            }
            write!(f, "{name}: [")?;
            for (j, x) in v.iter().enumerate() {
                if j > 0 {
                    f.write_str(", ")?;
                }
                write!(f, "{x}")?;
            }
            f.write_str("]")?;
        }
        write!(f, "}} -> offset ({})", self.out_size)
    }
}
