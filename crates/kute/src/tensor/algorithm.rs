//! CuTe's tensor algorithms (`algorithm/copy.hpp`, `fill.hpp`, `axpby.hpp`,
//! `gemm.hpp`), element by element in 1-D coordinate order.
//!
//! [`copy`] takes a fast path when both tensors have storage and plain
//! layouts with integer strides: it walks both layouts in runs (no layout
//! evaluation per element), and when [`max_common_vector`](crate::max_common_vector)
//! of the two layouts is more than 1 it copies whole vectors of that many
//! contiguous elements with `clone_from_slice` (a `memcpy` for `Copy` types):
//! both layouts are divided by [`max_common_layout`](crate::max_common_layout)
//! (the same reordering of the 1-D domain for both, so element `i` still goes
//! to element `i`), and the rest modes give the vectors' offsets.
//! Every path copies element `i` of the source to element `i` of the
//! destination, for every 1-D coordinate `i`.

use super::{Engine, EngineMut, Tensor};
use crate::composed::AnyLayout;
use crate::error::{Error, Result};
use crate::int::Int;
use crate::int_tuple::IntTuple;
use crate::layout::Layout;
use crate::tree::Tree;
use std::ops::{Add, Mul};

/// The path [`copy`] took.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CopyPath {
    /// Vectors of `width` contiguous elements, each copied with `clone_from_slice`.
    Vector {
        /// The elements per vector: `max_common_vector` of the two layouts.
        width: i64,
    },
    /// Element by element along runs of both layouts' strides.
    Strided,
    /// Element by element through each tensor's own evaluation (composed or
    /// basis-stride layouts, engines without storage).
    Generic,
}

/// A layout with integer strides as flat leaves, plus a base offset.
#[derive(Clone, Debug)]
struct Flat {
    ext: Vec<i64>,
    stride: Vec<i64>,
    base: i64,
}

impl Flat {
    fn of(l: &Layout, base: i64) -> Option<Flat> {
        if !l.has_int_strides() {
            return None;
        }
        let (mut ext, mut stride) = (Vec::new(), Vec::new());
        for m in l.leaves() {
            if m.shape.value() != 1 {
                ext.push(m.shape.value());
                stride.push(m.stride.value());
            }
        }
        Some(Flat { ext, stride, base })
    }

    fn of_tensor<E>(t: &Tensor<E>) -> Option<Flat> {
        match (t.layout(), t.offset().as_int()) {
            (AnyLayout::Layout(l), Some(o)) => Flat::of(l, o.value()),
            _ => None,
        }
    }

    /// Whether every offset, extended by `run` contiguous elements, lies in `[0, len)`.
    fn within(&self, run: i64, len: usize) -> bool {
        let (mut lo, mut hi) = (self.base as i128, self.base as i128 + run as i128 - 1);
        for (&e, &s) in self.ext.iter().zip(&self.stride) {
            let span = (e as i128 - 1) * s as i128;
            if span < 0 {
                lo += span;
            } else {
                hi += span;
            }
        }
        lo >= 0 && hi < len as i128
    }

    /// Whether the layout is `v:1` (the leaves contiguous, first to last).
    fn is_contiguous(&self, v: i64) -> bool {
        let mut next = 1i64;
        for (&e, &s) in self.ext.iter().zip(&self.stride) {
            if s != next {
                return false;
            }
            next = next.saturating_mul(e);
        }
        next == v
    }
}

/// An odometer over a [`Flat`] layout, stepping `g` elements of its first leaf at a time.
struct Odometer<'a> {
    f: &'a Flat,
    idx: Vec<i64>,
    cur: i64,
}

impl<'a> Odometer<'a> {
    fn new(f: &'a Flat) -> Odometer<'a> {
        Odometer { f, idx: vec![0; f.ext.len()], cur: f.base }
    }
    fn advance(&mut self, g: i64) {
        let f = self.f;
        if f.ext.is_empty() {
            return;
        }
        self.idx[0] += g;
        self.cur += g * f.stride[0];
        let mut k = 0;
        while self.idx[k] == f.ext[k] {
            self.cur -= f.ext[k] * f.stride[k];
            self.idx[k] = 0;
            k += 1;
            if k == f.ext.len() {
                return;
            }
            self.idx[k] += 1;
            self.cur += f.stride[k];
        }
    }
}

/// Calls `f(a_offset, b_offset, g, a_stride, b_stride)` for runs of `g`
/// elements that both layouts (of the same size `n`) walk with one stride each,
/// covering the 1-D coordinates `0..n` in order.
fn for_each_run(a: &Flat, b: &Flat, n: i64, mut f: impl FnMut(i64, i64, i64, i64, i64)) {
    let first = |x: &Flat| x.ext.first().map(|&e| (e, x.stride[0])).unwrap_or((1, 0));
    let ((ea, sa), (eb, sb)) = (first(a), first(b));
    let g = crate::arith::gcd_i64(ea, eb).max(1);
    let (mut oa, mut ob) = (Odometer::new(a), Odometer::new(b));
    let mut done = 0;
    while done < n {
        f(oa.cur, ob.cur, g, sa, sb);
        oa.advance(g);
        ob.advance(g);
        done += g;
    }
}

/// The strided copy of two layouts whose first two leaves have the same
/// extents (a tile, e.g. both sides of a tiled transpose): block by block,
/// each block walked with its inner loop along the source's smaller stride
/// (one slice of the source per row, so a contiguous source row is read as
/// a slice). `false`, copying nothing, when the layouts are not of that form.
///
/// Pre: both layouts lie in their storage (`within(1, ..)`), `n` elements each.
fn copy_blocks<T: Clone>(src: &[T], dst: &mut [T], a: &Flat, b: &Flat, n: i64) -> bool {
    if a.ext.len() < 2 || b.ext.len() < 2 || a.ext[..2] != b.ext[..2] {
        return false;
    }
    let (e0, e1) = (a.ext[0], a.ext[1]);
    // the inner loop runs along the leaf where the destination's stride is 1
    let (inner, outer) = if b.stride[1] == 1 { (1, 0) } else { (0, 1) };
    let (ei, eo) = ([e0, e1][inner], [e0, e1][outer]);
    let (sai, sao, sbi, sbo) = (a.stride[inner], a.stride[outer], b.stride[inner], b.stride[outer]);
    if sai <= 0 || sbi <= 0 || (sai != 1 && sbi != 1) {
        return false;
    }
    // the rest: the leaves after the block, walked block by block
    let rest = |f: &Flat| Flat { ext: f.ext[2..].to_vec(), stride: f.stride[2..].to_vec(), base: f.base };
    let (ra, rb) = (rest(a), rest(b));
    let block = e0 * e1;
    let (mut oa, mut ob) = (Odometer::new(&ra), Odometer::new(&rb));
    let mut done = 0;
    while done < n {
        for o in 0..eo {
            let (s0, d0) = ((oa.cur + o * sao) as usize, (ob.cur + o * sbo) as usize);
            if sbi == 1 && sai != 1 {
                // a contiguous destination row: read the source along its stride
                let step = sai as usize;
                let mut si = s0;
                for y in &mut dst[d0..d0 + ei as usize] {
                    *y = src[si].clone();
                    si += step;
                }
                continue;
            }
            let row = &src[s0..s0 + ei as usize];
            if sbi == 1 {
                dst[d0..d0 + ei as usize].clone_from_slice(row);
            } else if sbi > 0 {
                let step = sbi as usize;
                let mut di = d0;
                for x in row {
                    dst[di] = x.clone();
                    di += step;
                }
            } else {
                for (k, x) in row.iter().enumerate() {
                    dst[(d0 as i64 + k as i64 * sbi) as usize] = x.clone();
                }
            }
        }
        oa.advance(1);
        ob.advance(1);
        done += block;
    }
    true
}

fn check_sizes(op: &'static str, a: i64, b: i64) -> Result<()> {
    if a != b {
        return Err(Error::mismatch(op, format!("the tensors have {a} and {b} elements")));
    }
    Ok(())
}

fn run_copy<T: Clone>(src: &[T], dst: &mut [T], s: i64, d: i64, g: i64, ss: i64, sd: i64) {
    let (s, d, g) = (s as usize, d as usize, g as usize);
    if ss == 1 && sd == 1 {
        dst[d..d + g].clone_from_slice(&src[s..s + g]);
    } else if ss > 0 && sd > 0 {
        for (x, y) in dst[d..].iter_mut().step_by(sd as usize).zip(src[s..].iter().step_by(ss as usize)).take(g) {
            *x = y.clone();
        }
    } else {
        for r in 0..g as i64 {
            dst[(d as i64 + r * sd) as usize] = src[(s as i64 + r * ss) as usize].clone();
        }
    }
}

/// The vector width both layouts share and the two rest layouts (the vectors'
/// offsets), when the copy can move whole vectors.
fn vector_plan(ls: &Layout, ld: &Layout, bs: i64, bd: i64) -> Result<Option<(i64, Flat, Flat)>> {
    let v = crate::max_common_vector(ls, ld)?.value();
    if v <= 1 {
        return Ok(None);
    }
    // the domain's vector (CuTe's max_common_layout), first in both layouts:
    // the same reordering of the domain for both keeps element i matched to i
    let common = crate::max_common_layout(ls, ld)?;
    if common.size()?.value() != v {
        return Ok(None);
    }
    let tiler = crate::tiler::Tiler::Layout(common);
    let (zs, zd) = (crate::logical_divide(ls, &tiler)?, crate::logical_divide(ld, &tiler)?);
    let parts = |z: &Layout, base: i64| -> Result<Option<Flat>> {
        let (Some(v0), Some(rest)) = (Flat::of(&z.mode(0)?, 0), Flat::of(&z.mode(1)?, base)) else { return Ok(None) };
        Ok(v0.is_contiguous(v).then_some(rest))
    };
    match (parts(&zs, bs)?, parts(&zd, bd)?) {
        (Some(rs), Some(rd)) => Ok(Some((v, rs, rd))),
        _ => Ok(None),
    }
}

fn copy_impl<S, D, T>(src: &Tensor<S>, dst: &mut Tensor<D>, vectorize: bool) -> Result<CopyPath>
where
    S: Engine<Elem = T>,
    D: EngineMut<Elem = T>,
    T: Clone,
{
    let n = src.size()?;
    check_sizes("copy", n, dst.size()?)?;
    if let (Some(fs), Some(fd), Some(sdata)) = (Flat::of_tensor(src), Flat::of_tensor(dst), src.engine().data()) {
        if vectorize && let (AnyLayout::Layout(ls), AnyLayout::Layout(ld)) = (src.layout(), dst.layout()) {
            // a layout pair the common-vector analysis refuses is copied strided
            if let Ok(Some((v, rs, rd))) = vector_plan(ls, ld, fs.base, fd.base) {
                let ddata = dst.engine.data_mut();
                if rs.within(v, sdata.len()) && rd.within(v, ddata.len()) {
                    let w = v as usize;
                    for_each_run(&rs, &rd, n / v, |s, d, g, ss, sd| {
                        for r in 0..g {
                            let (s, d) = ((s + r * ss) as usize, (d + r * sd) as usize);
                            ddata[d..d + w].clone_from_slice(&sdata[s..s + w]);
                        }
                    });
                    return Ok(CopyPath::Vector { width: v });
                }
            }
        }
        let ddata = dst.engine.data_mut();
        if fs.within(1, sdata.len()) && fd.within(1, ddata.len()) {
            if !copy_blocks(sdata, ddata, &fs, &fd, n) {
                for_each_run(&fs, &fd, n, |s, d, g, ss, sd| run_copy(sdata, ddata, s, d, g, ss, sd));
            }
            return Ok(CopyPath::Strided);
        }
    }
    for i in 0..n {
        let v = src.get(i)?;
        *dst.get_mut(i)? = v;
    }
    Ok(CopyPath::Generic)
}

/// CuTe `copy(src, dst)`: `dst(i) = src(i)` for every 1-D coordinate `i`,
/// between layouts of any kind of equal size, vectorised when the layouts
/// allow (see the module's documentation).
///
/// Pre: equal sizes (else a `Mismatch` error); every position lies in its
/// engine (else a `Mismatch` error, and `dst` may be partly written).
/// Post: `dst(i) == src(i)` for every `i`; the path taken.
///
/// ```
/// use kute::tensor::{copy, CopyPath, Owned, Tensor};
/// let src = Tensor::new(Owned((0..8).collect::<Vec<i32>>()), "(4,2):(1,4)".parse::<kute::Layout>().unwrap());
/// let mut dst = Tensor::new(Owned(vec![0; 8]), "(4,2):(2,1)".parse::<kute::Layout>().unwrap());
/// assert_eq!(copy(&src, &mut dst).unwrap(), CopyPath::Strided);
/// assert_eq!(dst.engine().0, vec![0, 4, 1, 5, 2, 6, 3, 7]); // a transpose
/// let mut same = Tensor::new(Owned(vec![0; 8]), "(4,2):(1,4)".parse::<kute::Layout>().unwrap());
/// assert_eq!(copy(&src, &mut same).unwrap(), CopyPath::Vector { width: 8 });
/// ```
pub fn copy<S, D, T>(src: &Tensor<S>, dst: &mut Tensor<D>) -> Result<CopyPath>
where
    S: Engine<Elem = T>,
    D: EngineMut<Elem = T>,
    T: Clone,
{
    copy_impl(src, dst, true)
}

/// [`copy`] without the vector path (for comparisons).
///
/// Pre/Post: as [`copy`]; the path is never `Vector`.
///
/// ```
/// use kute::tensor::{copy_scalar, CopyPath, Owned, Tensor};
/// let src = Tensor::new(Owned(vec![1, 2, 3]), "3:1".parse::<kute::Layout>().unwrap());
/// let mut dst = Tensor::new(Owned(vec![0; 3]), "3:1".parse::<kute::Layout>().unwrap());
/// assert_eq!(copy_scalar(&src, &mut dst).unwrap(), CopyPath::Strided);
/// assert_eq!(dst.engine().0, vec![1, 2, 3]);
/// ```
pub fn copy_scalar<S, D, T>(src: &Tensor<S>, dst: &mut Tensor<D>) -> Result<CopyPath>
where
    S: Engine<Elem = T>,
    D: EngineMut<Elem = T>,
    T: Clone,
{
    copy_impl(src, dst, false)
}

/// CuTe `fill(t, v)`: every element becomes `v`.
///
/// Pre: every position lies in the storage (else a `Mismatch` error).
/// Post: `t(i) == v` for every `i`.
///
/// ```
/// use kute::tensor::{fill, Owned, Tensor};
/// let mut t = Tensor::new(Owned(vec![0; 6]), "(2,2):(3,1)".parse::<kute::Layout>().unwrap());
/// fill(&mut t, 9).unwrap();
/// assert_eq!(t.engine().0, vec![9, 9, 0, 9, 9, 0]);
/// ```
pub fn fill<D: EngineMut>(t: &mut Tensor<D>, v: D::Elem) -> Result<()>
where
    D::Elem: Clone,
{
    for i in 0..t.size()? {
        *t.get_mut(i)? = v.clone();
    }
    Ok(())
}

/// CuTe `clear(t)`: every element becomes `T::default()` (zero).
///
/// Pre: as [`fill`]. Post: `t(i) == T::default()` for every `i`.
///
/// ```
/// use kute::tensor::{clear, Owned, Tensor};
/// let mut t = Tensor::new(Owned(vec![5.0f32; 4]), "2:2".parse::<kute::Layout>().unwrap());
/// clear(&mut t).unwrap();
/// assert_eq!(t.engine().0, vec![0.0, 5.0, 0.0, 5.0]);
/// ```
pub fn clear<D: EngineMut>(t: &mut Tensor<D>) -> Result<()>
where
    D::Elem: Clone + Default,
{
    fill(t, D::Elem::default())
}

/// CuTe `transform(t, f)`: every element replaced by `f` of itself.
///
/// Pre: as [`fill`]. Post: `t(i) == f(old t(i))`.
///
/// ```
/// use kute::tensor::{transform, Owned, Tensor};
/// let mut t = Tensor::new(Owned(vec![1, 2, 3]), "3:1".parse::<kute::Layout>().unwrap());
/// transform(&mut t, |x| x * x).unwrap();
/// assert_eq!(t.engine().0, vec![1, 4, 9]);
/// ```
pub fn transform<D: EngineMut>(t: &mut Tensor<D>, mut f: impl FnMut(&D::Elem) -> D::Elem) -> Result<()> {
    for i in 0..t.size()? {
        let x = t.get_mut(i)?;
        *x = f(x);
    }
    Ok(())
}

/// CuTe `transform(src, dst, f)`: `dst(i) = f(src(i))`.
///
/// Pre: equal sizes (else a `Mismatch` error); as [`copy`].
/// Post: `dst(i) == f(src(i))` for every `i`.
///
/// ```
/// use kute::tensor::{make_counting_tensor, transform_into, Owned, Tensor};
/// let src = make_counting_tensor("4:3".parse::<kute::Layout>().unwrap());
/// let mut dst = Tensor::new(Owned(vec![0i64; 4]), "4:1".parse::<kute::Layout>().unwrap());
/// transform_into(&src, &mut dst, |x| x + 1).unwrap();
/// assert_eq!(dst.engine().0, vec![1, 4, 7, 10]);
/// ```
pub fn transform_into<S: Engine, D: EngineMut>(
    src: &Tensor<S>,
    dst: &mut Tensor<D>,
    mut f: impl FnMut(S::Elem) -> D::Elem,
) -> Result<()> {
    let n = src.size()?;
    check_sizes("transform", n, dst.size()?)?;
    for i in 0..n {
        let v = f(src.get(i)?);
        *dst.get_mut(i)? = v;
    }
    Ok(())
}

/// CuTe `axpby(alpha, x, beta, y)`: `y(i) = alpha * x(i) + beta * y(i)`.
///
/// Pre: equal sizes (else a `Mismatch` error); as [`copy`].
/// Post: as stated, for every `i`.
///
/// ```
/// use kute::tensor::{axpby, Owned, Tensor};
/// let x = Tensor::new(Owned(vec![1.0, 2.0]), "2:1".parse::<kute::Layout>().unwrap());
/// let mut y = Tensor::new(Owned(vec![10.0, 20.0]), "2:1".parse::<kute::Layout>().unwrap());
/// axpby(2.0, &x, 0.5, &mut y).unwrap();
/// assert_eq!(y.engine().0, vec![7.0, 14.0]);
/// ```
pub fn axpby<X, Y, T>(alpha: T, x: &Tensor<X>, beta: T, y: &mut Tensor<Y>) -> Result<()>
where
    X: Engine<Elem = T>,
    Y: EngineMut<Elem = T>,
    T: Copy + Add<Output = T> + Mul<Output = T>,
{
    let n = x.size()?;
    check_sizes("axpby", n, y.size()?)?;
    for i in 0..n {
        let xi = x.get(i)?;
        let yi = y.get_mut(i)?;
        *yi = alpha * xi + beta * *yi;
    }
    Ok(())
}

fn mode_size(shape: &IntTuple, i: usize) -> Result<i64> {
    let m = shape.as_ref().mode(i).ok_or_else(|| Error::mismatch("gemm", format!("{shape} has no mode {i}")))?;
    Ok(crate::int_tuple::product(m.leaves())?.value())
}

fn rank2(t: &IntTuple, name: &str) -> Result<(i64, i64)> {
    if t.is_leaf() || t.rank() != 2 {
        return Err(Error::mismatch("gemm", format!("{name} must have rank 2, its shape is {t}")));
    }
    Ok((mode_size(t, 0)?, mode_size(t, 1)?))
}

fn pair(a: i64, b: i64) -> IntTuple {
    Tree::tuple_of_leaves([Int::new_dynamic(a), Int::new_dynamic(b)])
}

/// CuTe's reference `gemm(A, B, C)` on rank-2 tensors: `C(m,n) += sum_k
/// A(m,k) * B(n,k)` (A is `(M,K)`, B is `(N,K)`, C is `(M,N)`, as in
/// `algorithm/gemm.hpp`).
///
/// Pre: the three tensors have rank 2 and the sizes of their modes agree as
/// above (else a `Mismatch` error); as [`copy`] for each access.
/// Post: `C(m,n) == old C(m,n) + sum_k A(m,k) * B(n,k)`, summed in order of `k`.
///
/// ```
/// use kute::tensor::{gemm, Owned, Tensor};
/// let a = Tensor::new(Owned(vec![1, 2, 3, 4]), "(2,2):(2,1)".parse::<kute::Layout>().unwrap()); // [[1,2],[3,4]]
/// let b = Tensor::new(Owned(vec![1, 0, 0, 1]), "(2,2):(2,1)".parse::<kute::Layout>().unwrap()); // identity
/// let mut c = Tensor::new(Owned(vec![0; 4]), "(2,2):(2,1)".parse::<kute::Layout>().unwrap());
/// gemm(&a, &b, &mut c).unwrap();
/// assert_eq!(c.engine().0, vec![1, 2, 3, 4]);
/// ```
pub fn gemm<A, B, C, T>(a: &Tensor<A>, b: &Tensor<B>, c: &mut Tensor<C>) -> Result<()>
where
    A: Engine<Elem = T>,
    B: Engine<Elem = T>,
    C: EngineMut<Elem = T>,
    T: Copy + Add<Output = T> + Mul<Output = T>,
{
    let (m, ka) = rank2(&a.shape()?, "A")?;
    let (n, kb) = rank2(&b.shape()?, "B")?;
    let (cm, cn) = rank2(&c.shape()?, "C")?;
    if ka != kb || cm != m || cn != n {
        return Err(Error::mismatch(
            "gemm",
            format!("A is {m}x{ka}, B is {n}x{kb} and C is {cm}x{cn}: want A (M,K), B (N,K), C (M,N)"),
        ));
    }
    for i in 0..m {
        for j in 0..n {
            let mut acc = *c.at_mut(&pair(i, j))?;
            for k in 0..ka {
                acc = acc + a.at(&pair(i, k))? * b.at(&pair(j, k))?;
            }
            *c.at_mut(&pair(i, j))? = acc;
        }
    }
    Ok(())
}
